#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel + initramfs under TCG with 2 vCPUs. The guest's console
# (ttyS0) goes to CONSOLE_LOG, or to the terminal if it is "-"; its result
# channel (ttyS1) goes to RESULTS_LOG. A guest that does not power off within
# TIMEOUT seconds is killed and the exit status is 124.
#
# A guest whose kernel dies during its own boot, before /init has printed
# "hwt-init: started", is booted again, at most twice: nothing of hwtimer
# has run at that point. Under multi-threaded TCG, Debian's stock kernels
# occasionally take an int3 Oops while patching static keys early in boot
# (seen once on 6.12-rt, in sched_clock_cpu right after "sched_clock: Marking
# stable"). Each such console is kept as CONSOLE_LOG.bootN and reported.
#
# HWT_QEMU_SMP (default 2) and HWT_QEMU_MEM (default 2G) size the guest.
# HWT_QEMU_TCG_THREAD=single runs every vCPU on one host thread: slower,
# but a kernel patching its own text (static keys, tracepoints) then never
# races another vCPU executing it, which under multi-threaded TCG has
# given a stock PREEMPT_RT kernel an int3 Oops in its own code, at boot
# and when a test enabled a tracepoint.
#
# HWT_QEMU_ICOUNT=SHIFT counts instead of racing: -icount shift=SHIFT,
# sleep=off (and a single TCG thread, which icount needs). The guest's
# clocks then advance 2^SHIFT ns per guest instruction executed, by any
# vCPU, and jump ahead while every vCPU is idle, so a figure timed in the
# guest is a count of instructions (at shift 0, 1 ns = 1 instruction),
# whatever the host is doing. Debian's 6.1 hangs at "Booting SMP
# configuration" under icount with 2 vCPUs; booted with maxcpus=1 it
# comes up, and takes the second CPU online afterwards (echo 1 >
# /sys/devices/system/cpu/cpu1/online, as bench/icount.sh's guests do;
# they add tsc=reliable, which keeps 6.1 off the HPET).
# HWT_QEMU_CPU (default max) is the CPU model: "max,erms=off,fsrm=off"
# keeps the kernel's user copies off "rep movsb", which icount counts a
# byte at a time (bench/guests.sh's icount rows use it).
#
# usage: qemu.sh KERNEL INITRD MODE CONSOLE_LOG RESULTS_LOG TIMEOUT [APPEND...]
set -uo pipefail

kernel=$1 initrd=$2 mode=$3 console=$4 results=$5 limit=$6
shift 6
append="console=ttyS0 panic=-1 oops=panic nokaslr hwt.mode=$mode $*"
thread=${HWT_QEMU_TCG_THREAD:-multi}
icount=()
if [ -n "${HWT_QEMU_ICOUNT:-}" ]; then
	icount=(-icount "shift=$HWT_QEMU_ICOUNT,sleep=off")
	thread=single
fi

boot() {
	local serial
	if [ "$console" = - ]; then
		serial=(-serial mon:stdio)
	else
		serial=(-monitor none -serial "file:$console")
	fi
	timeout --foreground -k 10 "$limit" \
		qemu-system-x86_64 -accel tcg,thread="$thread" "${icount[@]}" \
		-cpu "${HWT_QEMU_CPU:-max}" -smp "${HWT_QEMU_SMP:-2}" -m "${HWT_QEMU_MEM:-2G}" \
		-display none -no-reboot \
		"${serial[@]}" -serial "file:$results" \
		-kernel "$kernel" -initrd "$initrd" -append "$append"
}

for attempt in 1 2 3; do
	boot
	rc=$?
	[ "$console" = - ] && exit $rc
	[ $rc -ne 124 ] && [ ! -s "$results" ] && ! grep -q 'hwt-init: started' "$console" || exit $rc
	[ $attempt -eq 3 ] && break
	mv "$console" "$console.boot$attempt"
	echo "qemu.sh: the guest kernel died in its own boot, before /init ran" \
		"(qemu rc=$rc); its console is in $console.boot$attempt. Booting again." >&2
	grep -m3 -E 'Oops:|BUG:|Kernel panic' "$console.boot$attempt" | sed 's/^/    /' >&2
done
exit $rc
