// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl latency: the run's set-up and end. Checks the options against
 * the module, reads the cyclictest run to compare with, moves the process
 * to its CPUs, its memory into RAM and its scheduling to SCHED_FIFO, runs
 * the mode asked for, and reports. See latency.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "latency.h"

void series_add(struct series *s, int64_t ns)
{
	if (samples_add(&s->s, ns))
		die("out of memory for the samples (%llu kept)", (unsigned long long)s->s.n);
	hist_add(&s->h, ns);
}

static void series_init(struct series *s, const char *key, const char *title, uint64_t n)
{
	s->key = key;
	s->title = title;
	if (samples_init(&s->s, n))
		die("out of memory for %llu samples", (unsigned long long)n);
}

/* --compare in the one-shot mode needs a descriptor per timer */
static void fd_room(uint64_t n)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit: %s", strerror(errno));
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 64) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
			      rl.rlim_max >= n + 64 ? n + 64 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 64)
		usage_error("--compare needs one file descriptor per timer, and this "
			    "process may open %llu: use a --count of at most %llu, or "
			    "raise the limit (ulimit -n)", (unsigned long long)rl.rlim_cur,
			    (unsigned long long)(rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 0));
}

/* what the module takes: checked before anything is armed */
static void check_module(const struct latency_opts *o, int fd)
{
	struct hwtimer_info in;
	char a[32], b[32];

	check(hwtimer_info(fd, &in), "HWTIMER_IOC_INFO");
	if (!o->periodic && o->count > in.max_timers_per_fd)
		usage_error("--count %llu is more than a file may hold (%u, the module's "
			    "max_timers_per_fd)", (unsigned long long)o->count,
			    in.max_timers_per_fd);
	if (o->slack > in.max_delay_ns)
		usage_error("--slack %s is more than the longest the module takes (%s)",
			    dur(a, o->slack), dur(b, in.max_delay_ns));
	if (o->periodic && o->interval > in.max_delay_ns)
		usage_error("--interval %s is more than the longest the module takes (%s)",
			    dur(a, o->interval), dur(b, in.max_delay_ns));
	if (o->ring && !(in.features & HWTIMER_FEAT_RING))
		die("--ring: this module has no expiry ring; leave --ring out to read() "
		    "the records");
}

static void read_cyclictest(struct latency_run *r)
{
	char err[ARGS_ERR_LEN];
	FILE *f = fopen(r->o->compare_histfile, "r");

	if (!f)
		usage_error("cannot open --compare-histfile %s: %s", r->o->compare_histfile,
			    strerror(errno));
	if (histfile_read(&r->ct, f, err, sizeof(err)))
		usage_error("--compare-histfile %s: %s", r->o->compare_histfile, err);
	fclose(f);
}

/* -a, -m, -p: as cyclictest, for the whole process (threads inherit them) */
static void set_up_process(const struct latency_opts *o)
{
	struct sched_param sp = { .sched_priority = o->priority };

	if (o->affinity && sched_setaffinity(0, sizeof(o->cpus), &o->cpus)) {
		if (errno == EINVAL)
			usage_error("--affinity %s: none of these CPUs is online and allowed "
				    "to this process", o->cpulist);
		die("--affinity %s: %s", o->cpulist, strerror(errno));
	}
	if (o->mlock && mlockall(MCL_CURRENT | MCL_FUTURE))
		die("--mlockall: %s%s", strerror(errno), errno == ENOMEM || errno == EPERM ?
		    " (it needs CAP_IPC_LOCK, or an RLIMIT_MEMLOCK above what this run "
		    "holds)" : "");
	if (o->priority && sched_setscheduler(0, SCHED_FIFO, &sp))
		die("--priority %d: %s%s", o->priority, strerror(errno), errno == EPERM ?
		    " (SCHED_FIFO needs CAP_SYS_NICE, or an RLIMIT_RTPRIO of at least "
		    "the priority)" : "");
}

/* the report runs at the priority the process had, not SCHED_FIFO's */
static void end_realtime(const struct latency_opts *o)
{
	struct sched_param sp = { 0 };

	if (o->priority)
		sched_setscheduler(0, SCHED_OTHER, &sp);
}

int cmd_latency(int argc, char **argv)
{
	struct latency_opts o;
	struct latency_run r = { .o = &o };
	char err[ARGS_ERR_LEN];
	uint64_t n, early;
	int fd;

	cmd_args(latency_args(argc, argv, &o, err, sizeof(err)), err);
	if (o.compare_histfile)
		read_cyclictest(&r);
	if (o.compare && !o.periodic)
		fd_room(o.count);
	fd = open_dev();
	check_module(&o, fd);
	/* room for every sample expected, before -m locks memory */
	n = o.periodic ? (o.expiries ? o.expiries : 1 << 20) : o.count;
	series_init(&r.fire, "fire", "lateness at expiry (kernel: fire time - deadline)", n);
	series_init(&r.wake, "wakeup", o.ring ?
		    "lateness seen by this reader (ring harvest - deadline)" :
		    "lateness seen by this reader (read() return - deadline)", n);
	series_init(&r.tfd, "timerfd", o.periodic ?
		    "the same schedule on a timerfd, as its reader saw it (read() return - "
		    "deadline)" : "the same deadlines on timerfds, as this reader saw them "
		    "(epoll_wait() return - deadline)", o.compare ? n : 1);
	set_up_process(&o);
	catch_signals();
	if (o.periodic)
		latency_periodic(&r, fd);
	else
		latency_oneshot(&r, fd);
	close(fd);
	end_realtime(&o);
	latency_report(&r);

	early = r.fire.s.early + r.wake.s.early + r.tfd.s.early;
	samples_free(&r.fire.s);
	samples_free(&r.wake.s);
	samples_free(&r.tfd.s);
	histfile_free(&r.ct);
	if (early) {
		fprintf(stderr, "%s: %llu timers fired early: this is a bug, please report it\n",
			prog, (unsigned long long)early);
		return EXIT_EARLY;
	}
	return exit_status();
}
