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
# usage: qemu.sh KERNEL INITRD MODE CONSOLE_LOG RESULTS_LOG TIMEOUT [APPEND...]
set -uo pipefail

kernel=$1 initrd=$2 mode=$3 console=$4 results=$5 limit=$6
shift 6
append="console=ttyS0 panic=-1 oops=panic nokaslr hwt.mode=$mode $*"

boot() {
	local serial
	if [ "$console" = - ]; then
		serial=(-serial mon:stdio)
	else
		serial=(-monitor none -serial "file:$console")
	fi
	timeout --foreground -k 10 "$limit" \
		qemu-system-x86_64 -accel tcg,thread="${HWT_QEMU_TCG_THREAD:-multi}" -cpu max -smp "${HWT_QEMU_SMP:-2}" -m "${HWT_QEMU_MEM:-2G}" \
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
