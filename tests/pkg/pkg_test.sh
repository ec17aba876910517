#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In a stock guest (tests/vm/init.sh's "user" mode, which has loaded
# /hwt/modules/hwtimer.ko), as TAP: what the Debian packages installed in
# tests/vm/pkg_check.sh's chroot do. The module is the one DKMS built
# there; hwtimerctl and prog (tests/pkg/prog.c, built with pkg-config
# against libhwtimer-dev) are linked against libhwtimer.so.1, which is in
# the initramfs with the C library and the dynamic loader.
# @VERSION@ is the release (pkg_check.sh writes it in).
n=0 fail=0
t() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@" > /tmp/pkg.out 2>&1; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		fail=1
	fi
	sed 's/^/# /' /tmp/pkg.out
}
version() {
	[ "$(cat /sys/module/hwtimer/version)" = @VERSION@ ] &&
		hwtimerctl --version | grep -F " @VERSION@"
}

# the example driver, built by DKMS against the packaged hwtimer's
# Module.symvers and headers: it loads on the DKMS-built hwtimer.ko (the
# kernel checks every symbol's CRC) and its timers fire, none early
example() {
	insmod /hwt/modules/hwtimer_example.ko period_ms=10 || return 1
	sleep 1
	b=$(cat /sys/module/hwtimer_example/parameters/beats)
	e=$(cat /sys/module/hwtimer_example/parameters/early)
	echo "beats $b, early $e"
	rmmod hwtimer_example && [ "$b" -ge 5 ] && [ "$e" -eq 0 ]
}

echo "TAP version 13"
echo "1..5"
t "the module DKMS built is loaded, and it and hwtimerctl say @VERSION@" version
t "hwtimerctl info" hwtimerctl info
t "hwtimerctl after 10ms" hwtimerctl after 10ms
t "a program built with pkg-config --cflags --libs hwtimer arms and reads a timer" \
	/hwt/bin/hwtimer_prog
t "the example driver DKMS built against hwtimer-dkms loads and its timers fire" example
exit $fail
