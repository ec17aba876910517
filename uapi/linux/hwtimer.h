/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * <linux/hwtimer.h> - the userspace API of /dev/hwtimer
 *
 * Each open file of /dev/hwtimer holds any number of timers on a hashed
 * hierarchical timing wheel, named by ids and armed, re-armed and deleted
 * with the ioctls below, one at a time or thousands in a batch. Expiries
 * come back as struct hwtimer_record from read(), through eventfds, or in
 * an mmap'd expiry ring; the operations also run as io_uring commands.
 *
 * The contract, what each ioctl does with its fields and which errors it
 * returns, the records, the ring's protocol, the io_uring commands,
 * clocks, slack, limits and how the structs grow, is in
 * Documentation/userspace-api/hwtimer.rst; hwtimer(4) summarises it.
 * Every struct field is documented below.
 */
#ifndef _UAPI_LINUX_HWTIMER_H
#define _UAPI_LINUX_HWTIMER_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define HWTIMER_API_VERSION	1

/* ioctl type byte: 0xB9, free in Documentation/userspace-api/ioctl/ioctl-number.rst */
#define HWTIMER_IOC_MAGIC	0xB9

/* the shortest period of a periodic HWTIMER_F_NO_RECORD timer: 100 us */
#define HWTIMER_NO_RECORD_MIN_PERIOD_NS	100000

/* struct hwtimer_info.features */
#define HWTIMER_FEAT_BATCH		_BITULL(0)
#define HWTIMER_FEAT_PERIODIC		_BITULL(1)
#define HWTIMER_FEAT_FIXED_DELAY	_BITULL(2)
#define HWTIMER_FEAT_SLACK		_BITULL(3)
#define HWTIMER_FEAT_EVENTFD		_BITULL(4)
#define HWTIMER_FEAT_DRAIN		_BITULL(5)
#define HWTIMER_FEAT_CLOCK_BOOTTIME	_BITULL(6)
#define HWTIMER_FEAT_CLOCK_REALTIME	_BITULL(7)
#define HWTIMER_FEAT_AUTOREMOVE		_BITULL(8)
#define HWTIMER_FEAT_SLACK_DEFAULT	_BITULL(9)  /* HWTIMER_IOC_SLACK */
#define HWTIMER_FEAT_CLOCK_POSIX	_BITULL(10) /* time namespaces, elapsed
						     * relative CLOCK_REALTIME
						     */
#define HWTIMER_FEAT_CANCEL_ON_SET	_BITULL(11)
#define HWTIMER_FEAT_GEN		_BITULL(12) /* HWTIMER_F_GEN */
#define HWTIMER_FEAT_RECORD_SIZE	_BITULL(13) /* HWTIMER_IOC_RECORD_SIZE */
#define HWTIMER_FEAT_RING		_BITULL(14) /* HWTIMER_IOC_RING_SETUP */
#define HWTIMER_FEAT_URING_CMD		_BITULL(15) /* HWTIMER_URING_* */
#define HWTIMER_FEAT_URING_BATCH	_BITULL(16) /* HWTIMER_URING_BATCH */

/**
 * struct hwtimer_info - what the module offers, from HWTIMER_IOC_INFO
 * @api_version: HWTIMER_API_VERSION of the running module
 * @levels: levels of the timing wheel: the levels module parameter's, whose
 *	horizon bounds @max_delay_ns, and up to two more, for a wheel whose
 *	expiry falls behind
 * @features: HWTIMER_FEAT_* bits
 * @tick_ns: the wheel's tick, the width of its finest slots; timers fire at
 *	their deadlines all the same
 * @max_delay_ns: the longest delay or period accepted
 * @slots_per_level: slots of each wheel level (the top level may have
 *	fewer); level L's slots are @tick_ns << (L * @level_shift) long
 * @record_size: size of struct hwtimer_record as this kernel knows it; read()
 *	returns records of HWTIMER_RECORD_SIZE_VER0 bytes until the file asks
 *	for more with HWTIMER_IOC_RECORD_SIZE
 * @max_timers_per_fd: timers one file may hold (ENOSPC past it)
 * @max_timers_per_user: timers one user may hold over all files (EDQUOT);
 *	what else its files pin counts as the timers that would take as
 *	much memory (a file, each clock's wheel, ring slots: hwtimer.rst)
 * @max_batch: entries one HWTIMER_IOC_BATCH may carry (E2BIG past it)
 * @max_files_per_user: files of /dev/hwtimer one user may have open at once
 *	(open() fails with EMFILE past it)
 * @level_shift: log2 of how many slots of a level one slot of the level
 *	above spans; a level's @slots_per_level slots span two slots of the
 *	level above. 0 from a module older than this field.
 * @cascade_early: timers from which a slot of a level >= 1 is cascaded
 *	ahead of its start, while it is the next slot of its level, rather
 *	than when its first timer is due
 */
struct hwtimer_info {
	__u32 api_version;
	__u32 levels;
	__aligned_u64 features;
	__aligned_u64 tick_ns;
	__aligned_u64 max_delay_ns;
	__u32 slots_per_level;
	__u32 record_size;
	__u32 max_timers_per_fd;
	__u32 max_timers_per_user;
	__u32 max_batch;
	__u32 max_files_per_user;
	__u32 level_shift;
	__u32 cascade_early;
};

/* struct hwtimer_op.op, in batch entries */
#define HWTIMER_OP_ADD		1
#define HWTIMER_OP_MOD		2
#define HWTIMER_OP_CANCEL	3

/* struct hwtimer_op.flags */
#define HWTIMER_F_ABS		_BITUL(0) /* ADD, MOD: @expires is absolute */
#define HWTIMER_F_FIXED_DELAY	_BITUL(1) /* ADD, MOD: period from fire time */
#define HWTIMER_F_EVENTFD	_BITUL(2) /* ADD: signal @eventfd */
#define HWTIMER_F_NO_RECORD	_BITUL(3) /* ADD: eventfds only, no records */
#define HWTIMER_F_AUTOREMOVE	_BITUL(4) /* ADD: delete a one-shot once
					   * its expiry is delivered
					   */
#define HWTIMER_F_PERIOD	_BITUL(5) /* MOD: set @period (and policy) */
#define HWTIMER_F_IF_EARLIER	_BITUL(6) /* MOD: only if not pending, or
					   * earlier than its deadline
					   */
#define HWTIMER_F_IF_IDLE	_BITUL(7) /* MOD: only if not pending */
#define HWTIMER_F_CANCEL_ON_SET	_BITUL(8) /* ADD, MOD: with HWTIMER_F_ABS on
					   * CLOCK_REALTIME: withdraw the
					   * timer if the clock is set, with
					   * a record (so not with NO_RECORD)
					   */
#define HWTIMER_F_GEN		_BITUL(9) /* MOD, CANCEL: only the arming of
					   * generation @gen (else ESTALE;
					   * ENOENT for an id never handed
					   * out)
					   */
#define HWTIMER_F_REALTIME	_BITUL(10) /* ADD: yes, CLOCK_REALTIME; needed
					    * with it, refused with others
					    */

/**
 * struct hwtimer_op - one timer operation
 * @op: in a batch, HWTIMER_OP_*; for HWTIMER_IOC_ADD, _MOD and _CANCEL,
 *	zero or the matching HWTIMER_OP_*
 * @flags: HWTIMER_F_* flags valid for the operation
 * @id: MOD and CANCEL: the timer; ADD: set to the new timer's id (out only)
 * @gen: ADD and MOD: set to the generation of the new arming; CANCEL: set
 *	to the generation of the arming it ended. In: with HWTIMER_F_GEN (MOD,
 *	CANCEL), the generation the timer must still have; else not read
 * @clockid: ADD: CLOCK_MONOTONIC, CLOCK_BOOTTIME or CLOCK_REALTIME (with
 *	HWTIMER_F_REALTIME)
 * @eventfd: ADD with HWTIMER_F_EVENTFD: an eventfd to signal on expiry.
 *	Each expiry pass adds 1 to its counter, once however many of its
 *	timers the pass expired: a timer's own eventfd counts its expiries,
 *	one shared by timers due together counts the passes that took them
 *	(hwtimer.rst, "Delivery")
 * @expires: ADD and MOD: the delay in ns, or with HWTIMER_F_ABS the deadline
 *	on the timer's clock. CANCEL: set to the ns that were left if the
 *	timer was pending, else 0 (out only)
 * @period: ADD (and MOD with HWTIMER_F_PERIOD): 0 for a one-shot timer, else
 *	the period in ns. Fixed-rate (the default) keeps deadlines on the grid
 *	@expires + k * @period, even where the first one has passed already
 *	(the periods since count as overruns); HWTIMER_F_FIXED_DELAY makes
 *	each deadline the previous fire time plus @period. Either way, periods missed while a
 *	record waited to be read are counted as overruns, not replayed.
 * @slack: ADD and MOD: the timer may fire anywhere in [deadline, deadline +
 *	@slack], so that timers whose windows overlap share a wakeup; for a
 *	periodic timer, in each period. Records and HWTIMER_IOC_GET report
 *	the deadline as given. 0: fire at the deadline.
 * @cookie: ADD: any value, returned in the timer's records
 * @result: set to the operation's result (out only): as the matching single
 *	ioctl returns it, 0 or a positive value on success, or -errno. ADD
 *	gives 0. MOD and CANCEL tell what became of the arming they end: 1 if
 *	it was pending (armed, not yet fired), 2 if it had fired and its
 *	record, not read yet, was dropped with it, 0 otherwise. A MOD whose
 *	condition (HWTIMER_F_IF_EARLIER, HWTIMER_F_IF_IDLE) does not hold
 *	leaves the timer alone and gives 1 if it is pending, else 0; @gen
 *	then tells whether it was re-armed.
 * @padding: reserved, zero
 */
struct hwtimer_op {
	__u32 op;
	__u32 flags;
	__u32 id;
	__u32 gen;
	__u32 clockid;
	__s32 eventfd;
	__aligned_u64 expires;
	__aligned_u64 period;
	__aligned_u64 slack;
	__aligned_u64 cookie;
	__s32 result;
	__u32 padding;
};

/* struct hwtimer_get.state */
#define HWTIMER_STATE_IDLE	0	/* not armed: fired, record read */
#define HWTIMER_STATE_PENDING	1	/* armed */
#define HWTIMER_STATE_FIRED	2	/* fired, its record not read yet */
#define HWTIMER_STATE_CANCELED	3	/* withdrawn by a clock set, its
					 * record not read yet
					 */

/**
 * struct hwtimer_get - a timer's state, from HWTIMER_IOC_GET
 * @id: the timer
 * @flags: reserved, zero
 * @state: HWTIMER_STATE_*
 * @timer_flags: the HWTIMER_F_* flags the timer keeps: FIXED_DELAY,
 *	EVENTFD, NO_RECORD, AUTOREMOVE
 * @clockid: the timer's clock
 * @gen: generation of its current arming
 * @expires: its current deadline, absolute, on its clock
 * @remaining: ns until @expires if it is pending, else 0
 * @period: its period, 0 for a one-shot timer
 * @cookie: its cookie
 * @overruns: with state HWTIMER_STATE_FIRED, the overruns its queued record
 *	holds so far; else 0
 */
struct hwtimer_get {
	__u32 id;
	__u32 flags;
	__u32 state;
	__u32 timer_flags;
	__u32 clockid;
	__u32 gen;
	__aligned_u64 expires;
	__aligned_u64 remaining;
	__aligned_u64 period;
	__aligned_u64 cookie;
	__aligned_u64 overruns;
};

/* struct hwtimer_batch.flags */
#define HWTIMER_BATCH_STOP_ON_ERROR	_BITUL(0)

/**
 * struct hwtimer_batch - many operations in one HWTIMER_IOC_BATCH
 * @ops: pointer to an array of @count entries of @op_size bytes each, each
 *	a struct hwtimer_op with @op set; each entry processed is written back
 *	whole, with its @result and output fields
 * @count: number of entries, at most struct hwtimer_info.max_batch
 * @op_size: sizeof(struct hwtimer_op) as the caller was built with
 * @flags: HWTIMER_BATCH_STOP_ON_ERROR: stop after the first failed entry
 * @done: set to the number of entries processed
 *
 * Entries are processed in order, each on its own; one failing does not
 * undo the others. The ioctl returns the number of entries processed,
 * fewer than @count if it stopped on an error or for a pending signal.
 *
 * Results cannot be lost: the kernel pins the pages of each chunk of
 * entries (64 at most, within one page's worth of bytes) before it runs
 * them, and writes their results through the pins. An array it cannot
 * write (read-only, unmapped) fails before the chunk runs: the ioctl
 * returns the entries done before it, or EFAULT if none.
 */
struct hwtimer_batch {
	__aligned_u64 ops;
	__u32 count;
	__u32 op_size;
	__u32 flags;
	__u32 done;
};

/**
 * struct hwtimer_drain - cancel every timer, from HWTIMER_IOC_DRAIN
 * @ids: pointer to an array of @max __u32 that receives the ids of the
 *	timers that were armed and had not fired; may be 0 if @max is 0
 * @max: capacity of @ids; 0 cancels everything and reports only @count
 * @count: set to the number of armed timers cancelled (and ids written)
 * @flags: reserved, zero
 * @remaining: set to the number of timers left on the file; call again
 *	while it is non-zero. DRAIN stops early when @ids is full, when a
 *	signal is pending, and once it has gone through the timers there were
 *	when it started (so that other threads adding timers cannot keep it
 *	going)
 *
 * Like a timer wheel's stop() returning the tasks it never ran. Timers that
 * fired are deleted too, with any records they had queued. As BATCH does,
 * DRAIN pins the part of @ids each chunk of 256 timers fills before it
 * deletes them: if it cannot, it stops there (EFAULT if nothing was done)
 * and the timers stay.
 */
struct hwtimer_drain {
	__aligned_u64 ids;
	__u32 max;
	__u32 count;
	__u32 flags;
	__u32 remaining;
};

/**
 * struct hwtimer_eventfd - the file's eventfd, for HWTIMER_IOC_SET_EVENTFD
 * @fd: an eventfd signalled whenever expiries queue records, or -1 for none:
 *	1 for each expiry pass that queued any (hwtimer.rst, "Delivery")
 * @flags: reserved, zero
 */
struct hwtimer_eventfd {
	__s32 fd;
	__u32 flags;
};

/* struct hwtimer_slack.flags */
#define HWTIMER_SLACK_SET	_BITUL(0) /* set the default to @slack */

/**
 * struct hwtimer_slack - the file's default slack, for HWTIMER_IOC_SLACK
 * @slack: with HWTIMER_SLACK_SET, the new default in ns, at most struct
 *	hwtimer_info.max_delay_ns (else ERANGE), else not read; on return,
 *	the default as it was before the call
 * @flags: HWTIMER_SLACK_SET, or 0 to read the default only
 * @padding: reserved, zero
 */
struct hwtimer_slack {
	__aligned_u64 slack;
	__u32 flags;
	__u32 padding;
};

/* struct hwtimer_record.flags */
#define HWTIMER_REC_PERIODIC	_BITUL(0) /* the timer has been re-armed */
#define HWTIMER_REC_REMOVED	_BITUL(1) /* HWTIMER_F_AUTOREMOVE: the id is
					   * gone
					   */
#define HWTIMER_REC_CANCELED	_BITUL(2) /* HWTIMER_F_CANCEL_ON_SET: the
					   * clock was set; the timer did not
					   * fire (timerfd's ECANCELED)
					   */

/**
 * struct hwtimer_record - one expiry, as read() returns it
 * @id: the timer
 * @gen: the generation of the arming that fired
 * @cookie: the timer's cookie
 * @deadline: the deadline that fired; for a periodic timer, the point of its
 *	grid, even where the wheel fired it later because that point had
 *	passed when it was re-armed
 * @fired: when the wheel expired the timer, on its clock; never before
 *	@deadline
 * @overruns: expirations after @deadline that this record stands for too:
 *	for a periodic timer, periods that ended before the record was read
 * @flags: HWTIMER_REC_*
 * @clockid: the timer's clock
 */
struct hwtimer_record {
	__u32 id;
	__u32 gen;
	__aligned_u64 cookie;
	__aligned_u64 deadline;
	__aligned_u64 fired;
	__aligned_u64 overruns;
	__u32 flags;
	__u32 clockid;
};

/**
 * struct hwtimer_record_size - the size of read()'s records, for
 * HWTIMER_IOC_RECORD_SIZE
 * @size: 0 to read the setting only, else the record size the caller was
 *	built with: a multiple of 8, from HWTIMER_RECORD_SIZE_VER0 to 4096
 *	(EINVAL otherwise). On return, the file's record size
 * @known: set to the bytes of each record the kernel fills, at most @size;
 *	the rest of a record is zero
 *
 * read() returns records of HWTIMER_RECORD_SIZE_VER0 bytes until a file
 * asks for another size, so a reader built before struct hwtimer_record
 * grew keeps working, and one built after asks for its own size and learns
 * from @known which of its fields this kernel fills. read() needs room for
 * one record of the file's size (EINVAL).
 */
struct hwtimer_record_size {
	__u32 size;
	__u32 known;
};

/*
 * The expiry ring: HWTIMER_IOC_RING_SETUP, then mmap() of the device.
 * Its layout and its producer/consumer protocol are in
 * Documentation/userspace-api/hwtimer.rst.
 */

/* struct hwtimer_ring.flags, set by the kernel */
#define HWTIMER_RING_QUEUED	_BITUL(0) /* records wait on the queue: call
					   * HWTIMER_IOC_RING_FLUSH or read()
					   */

/* struct hwtimer_ring.wake, set by the consumer */
#define HWTIMER_RING_WAKE_EMPTY	0 /* when records land in an emptied ring */
#define HWTIMER_RING_WAKE_AT	1 /* when the record at @wake_at lands */
#define HWTIMER_RING_WAKE_NONE	2 /* never: the consumer busy-polls */

/**
 * struct hwtimer_ring - the header of the expiry ring, at offset 0 of the
 * mapping; producer and consumer fields are 128 bytes apart, so that they
 * never share a cache line (or the pair that adjacent-line prefetch reads)
 * @prod: (kernel) index of the next record it writes
 * @flags: (kernel) HWTIMER_RING_QUEUED
 * @mask: (kernel) entries of the ring, minus 1
 * @rec_stride: (kernel) bytes from one record slot to the next
 * @queued: (kernel) records that took the queue because the ring was full,
 *	their re-arms were over the user's cap, or records were queued
 *	before them
 * @kernel_pad: keeps the consumer's fields on their own cache lines
 * @cons: (consumer) index of the next record it reads
 * @wake: (consumer) HWTIMER_RING_WAKE_*; an unknown value counts as 0
 * @wake_at: (consumer) with HWTIMER_RING_WAKE_AT, the index whose record
 *	wakes it
 * @consumer_pad: reserved
 */
struct hwtimer_ring {
	__u32 prod;
	__u32 flags;
	__u32 mask;
	__u32 rec_stride;
	__aligned_u64 queued;
	__u8 kernel_pad[104];
	__u32 cons;
	__u32 wake;
	__u32 wake_at;
	__u8 consumer_pad[116];
};

/* records the ring may have */
#define HWTIMER_RING_MAX_ENTRIES	262144

/**
 * struct hwtimer_ring_setup - the expiry ring, for HWTIMER_IOC_RING_SETUP
 * @entries: records the ring holds: a power of two, 1 to
 *	HWTIMER_RING_MAX_ENTRIES (EINVAL otherwise)
 * @flags: reserved, zero
 * @rec_offset: set to the offset of the first record in the mapping
 * @rec_stride: set to the bytes from one record slot to the next: at least
 *	sizeof(struct hwtimer_record), and the record may grow into the rest
 * @mmap_size: set to the length to map
 *
 * A file sets up one ring, once (EBUSY); its memory is charged to the
 * caller's memory cgroup, and each of its record slots counts as a timer
 * of the file's user against max_timers_per_user (EDQUOT past it; given
 * back when the file is released, or when the set-up fails).
 * Times in its records are in the
 * time namespace view of the task that set it up. Before it, mmap() and
 * HWTIMER_IOC_RING_FLUSH fail with ENODEV; mmap() of another length or
 * offset, or without MAP_SHARED, fails with EINVAL.
 */
struct hwtimer_ring_setup {
	__u32 entries;
	__u32 flags;
	__u32 rec_offset;
	__u32 rec_stride;
	__aligned_u64 mmap_size;
};

/*
 * io_uring: HWTIMER_URING_* commands as IORING_OP_URING_CMD on a
 * /dev/hwtimer fd, one operation or an array per SQE; see
 * Documentation/userspace-api/hwtimer.rst.
 */

/**
 * struct hwtimer_uring_cmd - the inline bytes of a short io_uring command
 * @expires: ADD, MOD: the deadline, as struct hwtimer_op.expires; CANCEL: 0
 * @id: MOD, CANCEL: the timer; ADD: 0
 * @flags: HWTIMER_F_* flags, as for the ioctl
 * @clockid: ADD: the clock, as struct hwtimer_op.clockid
 * @padding: reserved, zero
 */
struct hwtimer_uring_cmd {
	__aligned_u64 expires;
	__u32 id;
	__u16 flags;
	__u8 clockid;
	__u8 padding;
};

/**
 * struct hwtimer_uring_batch - the inline bytes of HWTIMER_URING_BATCH
 * @ops: the address of @count struct hwtimer_op, @op_size bytes apart, as
 *	 for HWTIMER_IOC_BATCH; with IORING_URING_CMD_FIXED in the SQE's
 *	 @uring_cmd_flags, an address in the registered buffer its
 *	 @buf_index names
 * @count: entries, at most struct hwtimer_info.max_batch
 * @op_size: sizeof(struct hwtimer_op) as the program knows it, a multiple
 *	     of 8 from HWTIMER_OP_SIZE_VER0 on
 * @flags: HWTIMER_BATCH_STOP_ON_ERROR, or 0
 */
struct hwtimer_uring_batch {
	__aligned_u64 ops;
	__u32 count;
	__u16 op_size;
	__u16 flags;
};

/* The sizes of the first version of each struct: smaller ones are refused. */
#define HWTIMER_INFO_SIZE_VER0		56
#define HWTIMER_INFO_SIZE_VER1		64 /* @level_shift, @cascade_early */
#define HWTIMER_OP_SIZE_VER0		64
#define HWTIMER_GET_SIZE_VER0		64
#define HWTIMER_BATCH_SIZE_VER0		24
#define HWTIMER_DRAIN_SIZE_VER0		24
#define HWTIMER_EVENTFD_SIZE_VER0	8
#define HWTIMER_SLACK_SIZE_VER0		16
#define HWTIMER_RECORD_SIZE_VER0	48
#define HWTIMER_RECORD_SIZE_MAX		4096
#define HWTIMER_RECORD_SIZE_SIZE_VER0	8
#define HWTIMER_RING_SETUP_SIZE_VER0	24

/* an ioctl number without its size: what a filter of every version matches */
#define HWTIMER_IOC_BASE(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

#define HWTIMER_IOC_INFO	_IOR(HWTIMER_IOC_MAGIC, 0x00, struct hwtimer_info)
#define HWTIMER_IOC_ADD		_IOWR(HWTIMER_IOC_MAGIC, 0x01, struct hwtimer_op)
#define HWTIMER_IOC_MOD		_IOWR(HWTIMER_IOC_MAGIC, 0x02, struct hwtimer_op)
#define HWTIMER_IOC_CANCEL	_IOWR(HWTIMER_IOC_MAGIC, 0x03, struct hwtimer_op)
#define HWTIMER_IOC_GET		_IOWR(HWTIMER_IOC_MAGIC, 0x04, struct hwtimer_get)
#define HWTIMER_IOC_BATCH	_IOWR(HWTIMER_IOC_MAGIC, 0x05, struct hwtimer_batch)
#define HWTIMER_IOC_DRAIN	_IOWR(HWTIMER_IOC_MAGIC, 0x06, struct hwtimer_drain)
#define HWTIMER_IOC_SET_EVENTFD	_IOW(HWTIMER_IOC_MAGIC, 0x07, struct hwtimer_eventfd)
#define HWTIMER_IOC_SLACK	_IOWR(HWTIMER_IOC_MAGIC, 0x08, struct hwtimer_slack)
#define HWTIMER_IOC_RECORD_SIZE	_IOWR(HWTIMER_IOC_MAGIC, 0x09, struct hwtimer_record_size)
#define HWTIMER_IOC_RING_SETUP	_IOWR(HWTIMER_IOC_MAGIC, 0x0a, struct hwtimer_ring_setup)
/* move queued records into the ring, rewrite the kernel's fields of its
 * header; returns how many records it moved
 */
#define HWTIMER_IOC_RING_FLUSH	_IO(HWTIMER_IOC_MAGIC, 0x0b)

/* io_uring command ops (struct io_uring_sqe.cmd_op) */
#define HWTIMER_URING_ADD	_IOW(HWTIMER_IOC_MAGIC, 0x20, struct hwtimer_uring_cmd)
#define HWTIMER_URING_MOD	_IOW(HWTIMER_IOC_MAGIC, 0x21, struct hwtimer_uring_cmd)
#define HWTIMER_URING_CANCEL	_IOW(HWTIMER_IOC_MAGIC, 0x22, struct hwtimer_uring_cmd)
#define HWTIMER_URING_OP	_IOW(HWTIMER_IOC_MAGIC, 0x23, struct hwtimer_op)
#define HWTIMER_URING_BATCH	_IOW(HWTIMER_IOC_MAGIC, 0x24, struct hwtimer_uring_batch)

#endif /* _UAPI_LINUX_HWTIMER_H */
