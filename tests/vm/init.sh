#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of hwtimer's test VMs (busybox). The kernel command line picks the
# mode with hwt.mode=:
#   check  load the module, run every KUnit suite and userspace test, unload,
#          check kmemleak (the debug kernel)
#   smoke  load, run the smoke tests, unload (Debian's stock kernels)
#   user   load, run the smoke and userspace tests, unload (the stock
#          PREEMPT_RT kernel)
#   kunit  load, run the KUnit modules, unload (the PREEMPT_RT debug kernel)
#   intree load, run the KUnit modules and then the userspace tests, unload
#          (the kernel tree with hwtimer's series applied, whose tests are
#          its kselftests: tests/vm/intree.sh)
#   demo   load and show the module at work
#   shell  load and offer a shell on the console
#   bench  load, run the benchmarks of /hwt/bench and hwtimer_bench.ko
#          (make bench, on Debian's stock kernels); hwt.bench=NAME runs
#          /hwt/bench/NAME alone, with hwt.args=A,B as its arguments
# hwt.only=NAME,NAME... (check, user and kunit modes) runs only the KUnit
# modules and test programs of those names, for a quick run by hand:
#   tests/vm/qemu.sh KERNEL INITRD check - /tmp/res 900 hwt.only=bound_test
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
# qemu.sh looks for this line: a guest that dies before printing it died in
# the kernel's own boot, before anything of hwtimer ran
echo "hwt-init: started, mode $mode" > /dev/console
# make check-long: the stress and the fuzzer run far longer
TEST_TIMEOUT=900
if grep -q 'hwt\.long=1' /proc/cmdline; then
	export HWT_STRESS_SECONDS=300 HWT_FUZZ_CALLS=10000000 HWT_FUZZ_SECONDS=3000
	TEST_TIMEOUT=3600
fi
# The results channel: a QEMU guest's second serial port, or the file of
# the host that tests/vm/uml.sh names (hwt.results=), appended to.
R=$(sed -n 's/.*hwt\.results=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -z "$R" ]; then
	R=/dev/ttyS1
	[ -c $R ] || R=/dev/null
fi
KMEMLEAK=/sys/kernel/debug/kmemleak
HWT=/hwt/modules/hwtimer.ko

say() { echo "hwt-init: $*" > /dev/console; }
only=$(sed -n 's/.*hwt\.only=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
# wanted FILE: whether hwt.only= leaves FILE to run
wanted() {
	[ -z "$only" ] && return 0
	case ",$only," in *",$(basename "$1" .ko),"*) return 0 ;; esac
	return 1
}
begin() { echo "=== hwt-begin $1" >> $R; }
end() { echo "=== hwt-end $1 rc=$2" >> $R; }

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
	} >> $R
	end harness 0
}

# End the run: QEMU's -no-reboot makes a reboot exit; UML exits on a halt.
stop() {
	case $R in /dev/*) ;; *) poweroff -f ;; esac
	reboot -f
}

finish() {
	report_checks
	echo "=== hwt-done" >> $R
	sync
	stop
}

# KCSAN (the kernel of make check-long) reports every race it sees, and one
# is known, benign and outside hwtimer. Filter exactly that one, by
# function, through KCSAN's own report filter list:
#  - fs/select.c: __pollwake() sets pwq->triggered and poll_schedule_timeout()
#    tests it with plain accesses, ordered by smp_wmb()/smp_store_mb(). Any
#    wake_up() of a poll()er shows it; it fired under stress_test when our
#    expiry woke a poll(). Annotated upstream in 2025: "fs: annotate
#    suspected data race between poll_schedule_timeout() and pollwake()"
#    (Dmitry Antipov, Reviewed-by: Jan Kara); 6.12.y does not have it.
# If either function cannot be found, the check fails instead of silently
# filtering nothing.
KCSAN=/sys/kernel/debug/kcsan
kcsan_known_races() {
	racy=$(sed -nE 's/^[0-9a-f]+ [tT] (poll_schedule_timeout[.a-z0-9]*|pollwake)$/\1/p' \
		/proc/kallsyms)
	[ "$(echo "$racy" | wc -w)" -eq 2 ] || { echo "found: $racy"; return 1; }
	for f in $racy; do
		echo "!$f" > $KCSAN || return 1
	done
	cat $KCSAN
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
	section=${2:-kunit:$name}
	ls /sys/kernel/debug/kunit > /tmp/suites.before 2>/dev/null
	# NAME.PARAM=VALUE on the kernel command line, as modprobe passes them
	args=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^$name\.//p")
	begin "$section"
	# shellcheck disable=SC2086
	insmod "$ko" $args >> $R 2>&1
	rc=$?
	for s in $(ls /sys/kernel/debug/kunit 2>/dev/null); do
		grep -qx "$s" /tmp/suites.before && continue
		cat "/sys/kernel/debug/kunit/$s/results" >> $R
	done
	end "$section" $rc
	rmmod "$name" 2>/dev/null
}

run_user_test() {
	t=$1
	name=${2:-user:$(basename "$t")}
	say "running $name"
	begin "$name"
	(cd /tmp && timeout -s KILL $TEST_TIMEOUT "$t") >> $R 2>&1
	rc=$?
	end "$name" $rc
}

# Make hwtimer.ko's own allocations fail at random (failslab, filtered to
# callers in the module's text) while a test runs: each failure must come
# back as ENOMEM, and kmemleak must stay clean at the end.
FAILSLAB=/sys/kernel/debug/failslab
fault_injection() {
	[ -d $FAILSLAB ] || return 1
	if [ "$1" = off ]; then
		echo 0 > $FAILSLAB/probability
		return 0
	fi
	# the module's text: from its lowest function to past its highest
	# (same-width hex sorts as numbers)
	syms=$(grep '\[hwtimer\]$' /proc/kallsyms | awk '$2 ~ /^[tT]$/ { print $1 }' | sort)
	lo=$(echo "$syms" | head -n 1) hi=$(echo "$syms" | tail -n 1)
	[ -n "$lo" ] && [ "$lo" != 0000000000000000 ] || return 1
	echo "0x$lo" > $FAILSLAB/require-start || return 1
	printf '0x%x\n' $((0x$hi + 65536)) > $FAILSLAB/require-end || return 1
	echo 32 > $FAILSLAB/stacktrace-depth
	# only tasks that asked for it (run_faulty), never init
	echo Y > $FAILSLAB/task-filter
	echo N > $FAILSLAB/ignore-gfp-wait
	echo 0 > $FAILSLAB/verbose
	echo 0 > $FAILSLAB/space
	echo -1 > $FAILSLAB/times
	echo 1 > $FAILSLAB/interval
	echo 5 > $FAILSLAB/probability
}

# run_faulty TEST NAME: run_user_test, in a task that failslab may fail
run_faulty() {
	echo "#!/bin/sh
echo 1 > /proc/self/make-it-fail && exec $1" > /tmp/faulty
	chmod +x /tmp/faulty
	run_user_test /tmp/faulty "$2"
}

# Unload races: rmmod is refused while a file is open or a client module
# holds hwtimer, and succeeds once everything is released; files opening
# and closing all the while.
unload_races() {
	for i in 1 2 3 4 5; do
		insmod $HWT 2>/dev/null
		( for j in 1 2 3 4 5 6 7 8; do hwtimerctl after 5ms >/dev/null 2>&1; done ) &
		churn=$!
		hwtimerctl after 2s >/dev/null 2>&1 &
		holder=$!
		sleep 0.3
		if rmmod hwtimer 2>/dev/null; then
			echo "round $i: rmmod succeeded with a file open"
			return 1
		fi
		kill $holder
		wait $holder $churn 2>/dev/null
		insmod /hwt/modules/hwtimer_example.ko || return 1
		if rmmod hwtimer 2>/dev/null; then
			echo "round $i: rmmod succeeded under a client module"
			return 1
		fi
		rmmod hwtimer_example || return 1
		rmmod hwtimer || { echo "round $i: rmmod refused once all was released"; return 1; }
	done
	! grep -q '^hwtimer' /proc/modules
}

cli_without_module() {
	out=$(hwtimerctl info 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 1 ] && echo "$out" | grep -q "the hwtimer kernel module is not loaded" &&
		echo "$out" | grep -q "modprobe hwtimer"
}

unload_all() {
	local i
	# an io_uring ring that held a file is torn down by a worker after
	# its last close: give it up to 5 s to drop the module
	for i in $(seq 50); do
		for m in $(cut -d' ' -f1 /proc/modules); do
			case $m in hwtimer*) rmmod "$m" 2>/dev/null ;; esac
		done
		grep -q '^hwtimer' /proc/modules || return 0
		sleep 0.1
	done
	for m in $(cut -d' ' -f1 /proc/modules); do
		case $m in hwtimer*) rmmod "$m" ;; esac
	done
	! grep -q '^hwtimer' /proc/modules
}

# The smallest horizons the module accepts: every timer still comes once,
# never early, with keys parked beyond the horizon (geometry_test).
small_geometry() {
	for l in 1 2; do
		unload_all && insmod $HWT levels=$l || return 1
		run_user_test /hwt/tests/geometry_test "levels$l:geometry_test"
	done
	unload_all && insmod $HWT
}

# The in-kernel API's bases come with each CPU's first online (review H1):
# loaded with CPU 1 offline, the module has three bases (one per clock),
# CPU 0's; the API's KUnit suite of CPUs runs then, with a timer
# initialised for CPU 1, which has none; bringing CPU 1 up makes its three, which stay
# when it goes down and comes back.
api_bases_per_cpu() {
	local cpu1=/sys/devices/system/cpu/cpu1/online a b c d
	bases() { cat /sys/class/misc/hwtimer/wheel/bases; }
	[ -w $cpu1 ] || { echo "no CPU 1 to take offline: nothing to check"; return 0; }
	unload_all && echo 0 > $cpu1 || return 1
	if ! insmod $HWT; then
		echo 1 > $cpu1
		return 1
	fi
	a=$(bases)
	run_kunit_module /hwt/kunit/hwtimer_api_cpu_kunit.ko kunit:hwtimer_api_cpu_kunit:cpu1_offline
	echo 1 > $cpu1 || return 1
	b=$(bases)
	echo 0 > $cpu1 && c=$(bases) && echo 1 > $cpu1 && d=$(bases) || return 1
	echo "bases: $a with CPU 1 never online, $b once it came up, $c when it went down, $d back"
	[ "$a" = 3 ] && [ "$b" = 6 ] && [ "$c" = 6 ] && [ "$d" = 6 ]
}

case "$mode" in
check)
	kmemleak_reset
	[ -e $KCSAN ] && check "KCSAN filters the known fs/select.c race" kcsan_known_races
	# a bad geometry is refused and leaves nothing loaded
	check "load refuses tick_ns=1" sh -c "! insmod $HWT tick_ns=1"
	check "load refuses levels=99" sh -c "! insmod $HWT levels=99"
	check "load hwtimer.ko" insmod $HWT
	for ko in /hwt/kunit/*.ko; do
		[ -f "$ko" ] && wanted "$ko" && run_kunit_module "$ko"
	done
	for t in /hwt/smoke/* /hwt/tests/*; do
		[ -x "$t" ] && wanted "$t" && run_user_test "$t"
	done
	[ -x /hwt/tests/geometry_test ] && wanted /hwt/tests/geometry_test &&
		check "load with levels=1 and levels=2" small_geometry
	wanted api_bases_per_cpu &&
		check "the in-kernel API's bases come with each CPU's first online" api_bases_per_cpu
	[ -n "$only" ] && { unload_all; finish; }
	check "failslab aimed at hwtimer.ko" fault_injection on
	HWT_EXPECT_NOMEM=1 HWT_FUZZ_CALLS=50000 \
		run_faulty /hwt/tests/fuzz_test faultinject:fuzz_test
	HWT_EXPECT_NOMEM=1 HWT_STRESS_SECONDS=8 \
		run_faulty /hwt/tests/stress_test faultinject:stress_test
	fault_injection off
	check "unload leaves no hwtimer module" unload_all
	check "hwtimerctl says the module is not loaded, and how to load it" cli_without_module
	check "rmmod refused while in use, clean once released" unload_races
	check "kmemleak clean after unload" kmemleak_clean
	finish
	;;
user)
	check "load hwtimer.ko" insmod $HWT
	for t in /hwt/smoke/* /hwt/tests/*; do
		[ -x "$t" ] && wanted "$t" && run_user_test "$t"
	done
	[ -x /hwt/tests/geometry_test ] && wanted /hwt/tests/geometry_test &&
		check "load with levels=1 and levels=2" small_geometry
	check "unload leaves no hwtimer module" unload_all
	finish
	;;
kunit|intree)
	check "load hwtimer.ko" insmod $HWT
	for ko in /hwt/kunit/*.ko; do
		[ -f "$ko" ] && wanted "$ko" && run_kunit_module "$ko"
	done
	if [ "$mode" = intree ]; then
		for t in /hwt/tests/*; do
			[ -x "$t" ] && wanted "$t" && run_user_test "$t"
		done
	fi
	check "unload leaves no hwtimer module" unload_all
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
	# hwt.bench=NAME runs that program of /hwt/bench alone
	only=$(sed -n 's/.*hwt\.bench=\([a-z_]*\).*/\1/p' /proc/cmdline)
	args=$(sed -n 's/.*hwt\.args=\([a-z_,]*\).*/\1/p' /proc/cmdline | tr , ' ')
	for b in /hwt/bench/*; do
		[ -x "$b" ] || continue
		[ -n "$only" ] && [ "$(basename "$b")" != "$only" ] && continue
		say "running $(basename "$b")"
		begin "bench:$(basename "$b")"
		# shellcheck disable=SC2086
		(cd /tmp && "$b" $args) >> $R 2>&1
		end "bench:$(basename "$b")" $?
	done
	if [ -z "$only" ]; then
		say "running hwtimer_bench.ko"
		begin bench:kernel
		insmod /hwt/modules/hwtimer_bench.ko >> $R 2>&1
		rc=$?
		dmesg | sed -n 's/.*hwtimer_bench: \({.*}\)$/\1/p' >> $R
		end bench:kernel $rc
		rmmod hwtimer_bench
	fi
	rmmod hwtimer
	echo "=== hwt-done" >> $R
	sync
	stop
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
	echo "=== hwt-done" >> $R
	stop
	;;
*)
	say "unknown hwt.mode '$mode'"
	stop
	;;
esac
