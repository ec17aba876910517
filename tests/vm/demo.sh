#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo shown by make vm, run inside the guest with hwtimer loaded.
p=/sys/module/hwtimer/parameters
echo
echo "== hwtimer is loaded"
grep '^hwtimer' /proc/modules
echo "tick:   $(cat $p/tick_ns) ns"
echo "levels: $(cat $p/levels)"
dmesg | grep 'hwtimer:'
echo
