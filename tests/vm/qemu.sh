#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel + initramfs under TCG with 2 vCPUs. The guest's console
# (ttyS0) goes to CONSOLE_LOG, or to the terminal if it is "-"; its result
# channel (ttyS1) goes to RESULTS_LOG. A guest that does not power off within
# TIMEOUT seconds is killed and the exit status is 124.
#
# usage: qemu.sh KERNEL INITRD MODE CONSOLE_LOG RESULTS_LOG TIMEOUT [APPEND...]
set -euo pipefail

kernel=$1 initrd=$2 mode=$3 console=$4 results=$5 limit=$6
shift 6
append="console=ttyS0 panic=-1 oops=panic nokaslr hwt.mode=$mode $*"
if [ "$console" = - ]; then
	serial=(-serial mon:stdio)
else
	serial=(-monitor none -serial "file:$console")
fi
exec timeout --foreground -k 10 "$limit" \
	qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m "${HWT_QEMU_MEM:-2G}" \
	-display none -no-reboot \
	"${serial[@]}" -serial "file:$results" \
	-kernel "$kernel" -initrd "$initrd" -append "$append"
