#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The path from a timer's deadline to its reader, counted instruction by
# instruction (issue 46): one rate of the rate curve (dev_bench trace RATE
# all) in a stock guest under QEMU's icount, with the function tracer on a
# few dozen functions along the way (the timer interrupt, hrtimer, hwtimer's
# pass, the wake-ups, the scheduler's switch, poll(), read(), epoll and the
# syscall's return), then bench/path_breakdown.py: for each way, the
# median instruction count from the deadline to each function on the path,
# and the steps between them, every timer of the run counted.
#
# Under icount the trace's x86-tsc clock counts the guest's instructions:
# path_breakdown.py maps it onto CLOCK_MONOTONIC through hwtimer's passes
# (as late_breakdown.py does). Each traced call costs the tracer's own
# instructions too; path_breakdown.py gives the steps as traced and the
# tracer's cost per call, which it measures from the run.
#
# usage: bench/path_trace.sh [RATE]       (default: 3000)
# environment: HWT_TRACE_KERNEL=6.12|6.1|6.12-rt (default 6.12),
#   HWT_TRACE_OUT (default .vm/path), HWT_QEMU_ICOUNT (default 0),
#   HWT_PATH_FUNCS: the functions traced (default: the list below),
#   HWT_PATH_MORE: functions traced besides
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

rate=${1:-3000}
want=${HWT_TRACE_KERNEL:-6.12}
out=${HWT_TRACE_OUT:-$HWT_OUT/path}
export HWT_QEMU_ICOUNT=${HWT_QEMU_ICOUNT:-0}
export HWT_QEMU_CPU=${HWT_QEMU_CPU:-max,erms=off,fsrm=off}
funcs=${HWT_PATH_FUNCS:-"
	__sysvec_apic_timer_interrupt hrtimer_interrupt __hrtimer_run_queues
	hwt_file_tick hwt_file_more timerfd_tmrproc
	hwt_base_expiry_begin hwt_base_expire_next hwt_ring_put hwt_ring_end
	hwt_queue_push hwt_queued_records hwt_base_expiry_end hwt_unlock_signal
	__wake_up eventfd_signal_mask pollwake autoremove_wake_function
	woken_wake_function ep_poll_callback try_to_wake_up
	hrtimer_start_range_ns tick_program_event irq_exit_rcu
	schedule_idle finish_task_switch.isra.0 finish_task_switch
	do_sys_poll poll_freewait hwt_poll hwt_read hwt_copy_records
	hwt_take_records eventfd_read timerfd_read ep_poll do_epoll_wait
	ksys_read syscall_exit_to_user_mode"}
# more, for a closer look: HWT_PATH_MORE (added to the list)
funcs="$funcs ${HWT_PATH_MORE:-}"
rel=
for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label hdr _ <<<"$entry"
	[ "$label" = "$want" ] && rel=$(hwt_stock_release "$hdr")
done
[ -n "$rel" ] || die "no stock kernel $want (scripts/common.sh)"
boot=()
[ "$want" = 6.1 ] && boot=(maxcpus=1 tsc=reliable)
rm -rf "$out"
mkdir -p "$out/guest"
hwt_trace_guest_build "$rel" "$out"

cat > "$out/guest/dev_bench" <<EOS
#!/bin/sh
for f in /sys/devices/system/cpu/cpu*/online; do
	[ "\$(cat \$f)" = 1 ] || echo 1 > \$f
done
T=/sys/kernel/tracing
[ -d \$T/events ] || mount -t tracefs nodev \$T
echo 131072 > \$T/buffer_size_kb
echo x86-tsc > \$T/trace_clock
for f in $(echo $funcs); do
	echo \$f >> \$T/set_ftrace_filter 2>/dev/null || echo "path: no \$f" >&2
done
echo "=== filter"
cat \$T/set_ftrace_filter
echo function > \$T/current_tracer
# the passes' clock reads map the trace's clock onto CLOCK_MONOTONIC
echo 1 > \$T/events/hwtimer/hwt_pass/enable
echo 'comm == "dev_bench.bin"' > \$T/events/sched/sched_wakeup/filter
echo 'prev_comm == "dev_bench.bin" || next_comm == "dev_bench.bin"' > \$T/events/sched/sched_switch/filter
echo 1 > \$T/events/sched/sched_wakeup/enable
echo 1 > \$T/events/sched/sched_switch/enable
echo > \$T/trace
echo 1 > \$T/tracing_on
echo "=== rate $rate"
/hwt/bench/dev_bench.bin trace $rate all
echo 0 > \$T/tracing_on
echo "=== trace $rate"
cat \$T/trace | gzip -c | base64
echo "=== end $rate"
EOS
chmod +x "$out/guest/dev_bench"
"$HWT_TOP/tests/vm/initramfs.sh" "$out/initrd.gz" "$out/mod/modules" bench="$out/guest" > /dev/null
HWT_QEMU_MEM=4G "$HWT_TOP/tests/vm/qemu.sh" "$(hwt_stock_image "$rel")" "$out/initrd.gz" bench \
	"$out/console" "$out/results" 3600 hwt.bench=dev_bench "${boot[@]}" ||
	die "the guest failed (see $out/console)"
[ "${HWT_TRACE_ANALYSE:-1}" = 0 ] ||
	python3 "$HWT_TOP/bench/path_breakdown.py" "$out/results" "$want" |
	tee "$out/path.md"
