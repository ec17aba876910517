#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot User-Mode Linux (a kernel tests/vm/kernel.sh built from
# tests/vm/uml.config) on the files of an initramfs that tests/vm/initramfs.sh
# packed, unpacked into a directory the kernel mounts as its root (hostfs),
# and run tests/vm/init.sh there as a QEMU guest runs it. UML runs the kernel
# as a host process, so in-kernel code runs at the CPU's own speed; it has
# one CPU. The console (the kernel's stdout and stderr) goes to CONSOLE_LOG,
# the result channel (a file in that root, hwt.results=) to RESULTS_LOG. A
# run that has not ended within TIMEOUT seconds is killed: exit status 124.
# HWT_UML_MEM sets its memory (default 512M).
#
# usage: uml.sh KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG TIMEOUT [APPEND...]
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

kdir=$1 initrd=$2 mode=$3 console=$4 results=$5 limit=$6
shift 6
[ -x "$kdir/linux" ] || die "no UML kernel at $kdir/linux"
root=$(mktemp -d "${TMPDIR:-/tmp}/hwt-uml.XXXXXX")
trap 'rm -rf "$root"' EXIT
(cd "$root" && gzip -dc "$initrd" | cpio -id --quiet) || die "cannot unpack $initrd"
: > "$root/results"

# con=null: no terminal for the other consoles; con0 writes to stdout
timeout -k 10 "$limit" "$kdir/linux" mem="${HWT_UML_MEM:-512M}" \
	root=/dev/root rootfstype=hostfs rootflags="$root" rw init=/init \
	con=null con0=null,fd:1 \
	hwt.mode="$mode" hwt.results=/results "$@" </dev/null >"$console" 2>&1
rc=$?
cp "$root/results" "$results"
exit $rc
