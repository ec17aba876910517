#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of hwtimer's test VMs (busybox). The kernel command line picks the
# mode with hwt.mode=:
#   check  load the module, run every KUnit suite and userspace test, unload,
#          check kmemleak (the debug kernel)
#   smoke  load, run the smoke tests, unload (Debian's stock kernels)
#   demo   load and show the module at work
#   shell  load and offer a shell on the console
#   bench  load, run the benchmarks of /hwt/bench and hwtimer_bench.ko
#          (make bench, on Debian's stock kernels)
#
# Results go to the second serial port in sections that the host feeds to
# kunit.py parse:  === hwt-begin NAME / (K)TAP / === hwt-end NAME rc=N
# The kernel's console (first serial port) is left to the kernel, and the
# host scans it for splats.

/bin/busybox mkdir -p /proc /sys /dev /tmp /bin /sbin /usr/bin /usr/sbin /root
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
export PATH=/hwt/bin:/bin:/sbin:/usr/bin:/usr/sbin HOME=/root

mode=$(sed -n 's/.*hwt\.mode=\([a-z]*\).*/\1/p' /proc/cmdline)
R=/dev/ttyS1
[ -c $R ] || R=/dev/null
KMEMLEAK=/sys/kernel/debug/kmemleak
HWT=/hwt/modules/hwtimer.ko

say() { echo "hwt-init: $*" > /dev/console; }
begin() { echo "=== hwt-begin $1" > $R; }
end() { echo "=== hwt-end $1 rc=$2" > $R; }

# Checks made by this script itself, reported as one TAP section at the end.
checks=/tmp/checks
: > $checks
check() {
	desc=$1
	shift
	if "$@" > /tmp/check.out 2>&1; then
		echo "ok $desc" >> $checks
	else
		echo "not ok $desc" >> $checks
		sed 's/^/# /' /tmp/check.out >> $checks
	fi
}
report_checks() {
	begin harness
	{
		echo "TAP version 13"
		echo "1..$(grep -c '^\(not \)\?ok ' $checks)"
		awk '/^(not )?ok /{ n++; sub(/ok /, "ok " n " "); } { print }' $checks
	} > $R
	end harness 0
}

finish() {
	report_checks
	echo "=== hwt-done" > $R
	sync
	reboot -f
}

kmemleak_reset() {
	[ -f $KMEMLEAK ] || return 0
	# report what boot leaked once, then forget it: later scans show ours
	echo scan > $KMEMLEAK
	echo clear > $KMEMLEAK
}

kmemleak_clean() {
	[ -f $KMEMLEAK ] || { echo "kmemleak not available"; return 0; }
	# objects younger than 5 s are never reported
	sleep 6
	echo scan > $KMEMLEAK
	echo scan > $KMEMLEAK
	cat $KMEMLEAK > /tmp/leaks
	cat /tmp/leaks > /dev/console
	cat /tmp/leaks
	[ ! -s /tmp/leaks ]
}

# Run one KUnit module: its suites' KTAP comes from debugfs.
run_kunit_module() {
	ko=$1
	name=$(basename "$ko" .ko)
	ls /sys/kernel/debug/kunit > /tmp/suites.before 2>/dev/null
	begin "kunit:$name"
	insmod "$ko" > $R 2>&1
	rc=$?
	for s in $(ls /sys/kernel/debug/kunit 2>/dev/null); do
		grep -qx "$s" /tmp/suites.before && continue
		cat "/sys/kernel/debug/kunit/$s/results" > $R
	done
	end "kunit:$name" $rc
	rmmod "$name" 2>/dev/null
}

run_user_test() {
	t=$1
	name=$(basename "$t")
	say "running $name"
	begin "user:$name"
	(cd /tmp && timeout -s KILL 600 "$t") > $R 2>&1
	rc=$?
	end "user:$name" $rc
}

cli_without_module() {
	out=$(hwtimerctl info 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 1 ] && echo "$out" | grep -q "the hwtimer kernel module is not loaded" &&
		echo "$out" | grep -q "modprobe hwtimer"
}

unload_all() {
	for m in $(cut -d' ' -f1 /proc/modules); do
		case $m in hwtimer*) rmmod "$m" ;; esac
	done
	! grep -q '^hwtimer' /proc/modules
}

case "$mode" in
check)
	kmemleak_reset
	# a bad geometry is refused and leaves nothing loaded
	check "load refuses tick_ns=1" sh -c "! insmod $HWT tick_ns=1"
	check "load refuses levels=99" sh -c "! insmod $HWT levels=99"
	check "load hwtimer.ko" insmod $HWT
	for ko in /hwt/kunit/*.ko; do
		[ -f "$ko" ] && run_kunit_module "$ko"
	done
	for t in /hwt/smoke/* /hwt/tests/*; do
		[ -x "$t" ] && run_user_test "$t"
	done
	check "unload leaves no hwtimer module" unload_all
	check "hwtimerctl says the module is not loaded, and how to load it" cli_without_module
	check "kmemleak clean after unload" kmemleak_clean
	finish
	;;
smoke)
	check "load hwtimer.ko" insmod $HWT
	check "hwtimerctl after 20ms fires on this kernel" hwtimerctl after 20ms
	for t in /hwt/smoke/*; do
		[ -x "$t" ] && run_user_test "$t"
	done
	check "unload leaves no hwtimer module" unload_all
	finish
	;;
bench)
	insmod $HWT || say "cannot load hwtimer.ko"
	for b in /hwt/bench/*; do
		[ -x "$b" ] || continue
		say "running $(basename "$b")"
		begin "bench:$(basename "$b")"
		(cd /tmp && "$b") > $R 2>&1
		end "bench:$(basename "$b")" $?
	done
	say "running hwtimer_bench.ko"
	begin bench:kernel
	insmod /hwt/modules/hwtimer_bench.ko > $R 2>&1
	rc=$?
	dmesg | sed -n 's/.*hwtimer_bench: \({.*}\)$/\1/p' > $R
	end bench:kernel $rc
	rmmod hwtimer_bench hwtimer
	echo "=== hwt-done" > $R
	sync
	reboot -f
	;;
demo | shell)
	insmod $HWT && say "hwtimer loaded"
	if [ -x /hwt/demo.sh ]; then
		/hwt/demo.sh
	fi
	if [ "$mode" = shell ]; then
		echo "hwtimer VM shell: the module is loaded; exit or ^D powers off."
		setsid cttyhack sh -l
	fi
	echo "=== hwt-done" > $R
	reboot -f
	;;
*)
	say "unknown hwt.mode '$mode'"
	reboot -f
	;;
esac
