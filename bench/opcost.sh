#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench's op path counted in instructions (issue 48; bench/run.sh
# calls it in layer 1, and it runs alone too): what an ADD + CANCEL pair
# costs through each door under callgrind, the way the wheel core's
# operations are counted (bench/core_bench.c).
#
# usage: bench/opcost.sh OUT RAW
# Results: RAW/opcost.jsonl, one line per door and pending count, with the
# pair's instructions by category (bench/op_breakdown.py); its table in
# BENCHMARKS.md comes from bench/report_opcost.py.
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

out=$1 raw=$2
mkdir -p "$out" "$raw"
# the op path's doors: an ADD + CANCEL pair through BATCH, one ioctl per
# op, the io_uring commands and the in-kernel API, and a userspace heap's
# pair beside them, at 1,000 and 100,000 pending (bench/op_bench.c). The
# module's own files, those of Kbuild's hwtimer-y that the op path
# reaches, built over the shims of bench/native (bench/native/kstubs.c
# names the rest); bench/op_breakdown.py sorts each pair's instructions
# into categories.
log "layer 1: the op path's instructions per ADD + CANCEL pair (bench/op_bench.c)"
op_cflags=(-O2 -g -std=gnu11 -Wall -Wno-unused-function -Wno-incompatible-pointer-types
	-DHWT_SHIM_FAST -DHWT_WHEEL_HOOKS -DHWT_VERSION='"bench"' -DCONFIG_IO_URING=1
	-DHWT_COMPAT_IO_URING_CMD_H -DHWT_COMPAT_URING_CMD_SQE
	-I"$HWT_TOP/bench/native/include" -I"$HWT_TOP/tests/native/include"
	-I"$HWT_TOP/kmod" -I"$HWT_TOP/kmod/include" -I"$HWT_TOP" -I"$HWT_TOP/bench")
# the module's files and the shims' as x86-64's kernel builds its code: no
# SSE (a struct copy moves 8 bytes at a time), no red zone, no PIE, no jump
# tables (retpolines), no alignment padding of loops and jumps, and at
# each function's entry an endbr64 (IBT) and the 5-byte nop that ftrace's
# patched __fentry__ call is
op_kflags=(-fno-pie -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -mno-red-zone
	-mskip-rax-setup -fno-strict-aliasing -fno-common -fno-delete-null-pointer-checks
	-fno-stack-protector -fno-jump-tables -falign-jumps=1 -falign-loops=1
	-fcf-protection=branch -pg -mfentry -mnop-mcount)
rm -rf "$out/op_obj"
mkdir -p "$out/op_obj"
for f in main wheel wheel_geometry wheel_clock wheel_cascade wheel_look base base_expiry api kbase dev_file \
	dev_account dev_ids dev_timer dev_queue dev_expiry dev_timens dev_prep \
	dev_ops dev_ioctl dev_batch dev_uring; do
	gcc "${op_cflags[@]}" "${op_kflags[@]}" -c "$HWT_TOP/kmod/$f.c" -o "$out/op_obj/$f.o" ||
		die "cannot build kmod/$f.c for op_bench"
done
for f in kshim kstubs; do
	gcc "${op_cflags[@]}" "${op_kflags[@]}" -c "$HWT_TOP/bench/native/$f.c" \
		-o "$out/op_obj/$f.o" || die "cannot build bench/native/$f.c"
done
# the harness and the userspace heap as a program is built
gcc "${op_cflags[@]}" -no-pie "$HWT_TOP/bench/op_bench.c" "$HWT_TOP/bench/uheap.c" \
	"$out/op_obj/"*.o -o "$out/op_bench" || die "cannot build op_bench"
: > "$raw/opcost.jsonl"
op_pairs=100000
for pend in 1000 100000; do
	for door in batch one kapi uring_batch uring_one uheap; do
		valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
			--toggle-collect='measure_*' --compress-pos=no --compress-strings=no \
			"$out/op_bench" -d $door -n $pend -p $op_pairs > "$out/cg.stdout" \
			2>"$out/cg.stderr" ||
			die "callgrind on op_bench -d $door -n $pend failed (see $out/cg.stderr)"
		python3 "$HWT_TOP/bench/op_breakdown.py" "$out/cg.out" --door $door \
			--pairs $op_pairs --pending $pend --run "$(cat "$out/cg.stdout")" \
			>> "$raw/opcost.jsonl" || die "op_breakdown.py on $door/$pend failed"
	done
done
