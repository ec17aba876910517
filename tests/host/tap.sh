# SPDX-License-Identifier: GPL-2.0
# TAP for the host-side test scripts. Sourced: needs $tmp, a scratch dir.
n=0 fail=0

t() {	# t DESCRIPTION CMD...: one TAP line, with the output on failure
	local desc=$1
	shift
	n=$((n + 1))
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		tail -n 30 "$tmp/out" | sed 's/^/# /'
		fail=1
	fi
}
