#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo shown by make vm, run inside the guest with hwtimer loaded:
# timers scheduled, fired and cancelled through hwtimerctl, then what the
# module saw.
show() {
	echo
	echo "\$ $*"
	"$@"
}

echo
echo "== hwtimer is loaded: $(grep '^hwtimer' /proc/modules | cut -d' ' -f1-2)"
show hwtimerctl info
show hwtimerctl after 100ms
show hwtimerctl after --every 50ms --count 4 50ms
echo
echo "\$ hwtimerctl after 10s   # killed after 0.3 s: closing its fd cancels the timer"
hwtimerctl after 10s &
sleep 0.3
kill $!
wait $! 2>/dev/null
show hwtimerctl latency -n 1000 -d 5ms --spread 200ms --compare
show hwtimerctl latency -n 5000 -d 5ms --spread 200ms --slack 1ms
show hwtimerctl stats
show hwtimerctl top -n 1
echo
