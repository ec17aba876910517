#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, in a guest (bench/guests.sh installs it as
# /hwt/bench/latency_cli): one timer at a time, hwtimer against timerfd, as
# a user measures it. 10^4 one-shot timers 1 ms apart (--spread 10s), so
# that each fires alone, then the same deadlines on timerfds in the same
# run (--compare). hwtimerctl's JSON object, on one line, tagged for
# bench/report.py: "fire" is the kernel's fire time - deadline, "wakeup"
# and "timerfd" are read() return - deadline, each with exact percentiles.
# Arguments (hwt.args=) are ignored.

# --compare holds a timerfd per timer: more than the default hard limit
# (busybox ash sets both limits)
# shellcheck disable=SC3045
ulimit -n 16384
json=$(hwtimerctl latency -n 10000 --spread 10s --compare --json -q)
rc=$?
case $json in
"{"*) printf '{"layer":"guest","kernel":"%s","group":"latency_cli",%s\n' \
	"$(uname -r)" "${json#\{}" ;;
esac
exit $rc
