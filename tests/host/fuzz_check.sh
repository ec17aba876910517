#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Coverage-guided fuzzing of the wheel core with libFuzzer, differential
# against a reference model (tests/fuzz/wheel_fuzz.c), for a bounded time
# from the committed seed corpus, as TAP. A crash prints its input, which
# reproduces with: BUILD/wheel_fuzz CRASH_FILE. The corpus is kept minimal:
# after adding inputs, merge it into an empty directory and commit that,
#   BUILD/wheel_fuzz -merge=1 -max_len=512 NEW_DIR tests/fuzz/corpus
#
# usage: fuzz_check.sh BUILD_DIR [SECONDS]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 secs=${2:-60}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "TAP version 13"
echo "1..2"
if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$top/tests/native/include" -I"$top/kmod" -I"$top/kmod/include" \
	"$top/tests/fuzz/wheel_fuzz.c" -o "$out/wheel_fuzz" >"$work/build.log" 2>&1; then
	echo "not ok 1 build the libFuzzer target (clang -fsanitize=fuzzer)"
	sed 's/^/# /' "$work/build.log"
	echo "not ok 2 fuzz the wheel core # SKIP not built"
	exit 1
fi
echo "ok 1 build the libFuzzer target (clang -fsanitize=fuzzer)"
# the committed corpus stays as it is: fuzz a copy
mkdir -p "$work/corpus"
cp "$top"/tests/fuzz/corpus/* "$work/corpus/" 2>/dev/null
seed=${HWT_FUZZ_SEED:-1}
(cd "$work" && "$out/wheel_fuzz" -max_total_time="$secs" -seed="$seed" -max_len=512 \
	-print_final_stats=1 "$work/corpus") >"$work/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
if [ $rc -eq 0 ]; then
	echo "ok 2 fuzz the wheel core against the model: ${runs:-?} inputs in $secs s, seed $seed, no failure"
else
	echo "not ok 2 fuzz the wheel core against the model (seed $seed, rc $rc)"
	grep -E 'ERROR|SUMMARY|Test unit written|Base64' "$work/fuzz.log" | sed 's/^/# /'
	for c in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
		[ -f "$c" ] && { cp "$c" "$out/"; echo "# input kept in $out/$(basename "$c")"; }
	done
	exit 1
fi
