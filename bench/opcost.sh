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
# the module's files and the shims' as x86-64's kernel builds its code: no
# SSE (a struct copy moves 8 bytes at a time), no red zone, no PIE, no jump
# tables (retpolines), no alignment padding of loops and jumps, and at
# each function's entry an endbr64 (IBT) and the 5-byte nop that ftrace's
# patched __fentry__ call is
op_kflags=(-fno-pie -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -mno-red-zone
	-mskip-rax-setup -fno-strict-aliasing -fno-common -fno-delete-null-pointer-checks
	-fno-stack-protector -fno-jump-tables -falign-jumps=1 -falign-loops=1
	-fcf-protection=branch -pg -mfentry -mnop-mcount)
# the files of Kbuild's hwtimer-y that the op path reaches; a file a tree
# has not (an older one, split since) is left out
op_files=(main wheel wheel_geometry wheel_clock wheel_cascade wheel_look base
	base_expiry api kbase dev_file dev_account dev_ids dev_timer dev_queue
	dev_expiry dev_timens dev_prep dev_ops dev_ioctl dev_batch dev_uring)

# build TOP OBJ BIN: op_bench over the module's files of TOP
build() {
	local top=$1 obj=$2 bin=$3 f
	local cflags=(-O2 -g -std=gnu11 -Wall -Wno-unused-function
		-Wno-incompatible-pointer-types -DHWT_SHIM_FAST -DHWT_WHEEL_HOOKS
		-DHWT_VERSION='"bench"' -DCONFIG_IO_URING=1 -DHWT_COMPAT_IO_URING_CMD_H
		-DHWT_COMPAT_URING_CMD_SQE -I"$top/bench/native/include"
		-I"$top/tests/native/include" -I"$top/kmod" -I"$top/kmod/include"
		-I"$top" -I"$top/bench")

	rm -rf "$obj"
	mkdir -p "$obj"
	for f in "${op_files[@]}"; do
		[ -f "$top/kmod/$f.c" ] || continue
		gcc "${cflags[@]}" "${op_kflags[@]}" -c "$top/kmod/$f.c" -o "$obj/$f.o" ||
			return 1
	done
	for f in kshim kstubs; do
		gcc "${cflags[@]}" "${op_kflags[@]}" -c "$top/bench/native/$f.c" \
			-o "$obj/$f.o" || return 1
	done
	# the harness and the userspace heap as a program is built
	gcc "${cflags[@]}" -no-pie "$top/bench/op_bench.c" "$top/bench/uheap.c" \
		"$obj/"*.o -o "$bin"
}

# doors TOP BIN [TREE]: each door under callgrind, a line of opcost.jsonl
# each (with "tree": TREE, for a tree before this one)
doors() {
	local top=$1 bin=$2 tree=${3:-} pend door
	for pend in 1000 100000; do
		for door in batch one kapi uring_batch uring_one uheap; do
			valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
				--toggle-collect='measure_*' --compress-pos=no \
				--compress-strings=no "$bin" -d $door -n $pend -p 100000 \
				> "$out/cg.stdout" 2>"$out/cg.stderr" ||
				die "callgrind on op_bench -d $door -n $pend failed (see $out/cg.stderr)"
			python3 "$HWT_TOP/bench/op_breakdown.py" "$out/cg.out" --door $door \
				--pairs 100000 --pending $pend --run "$(cat "$out/cg.stdout")" \
				--tree "$top" > "$out/row.json" ||
				die "op_breakdown.py on $door/$pend failed"
			if [ -n "$tree" ]; then
				sed "s/^{/{\"tree\": \"$tree\", /" "$out/row.json"
			else
				cat "$out/row.json"
			fi >> "$raw/opcost.jsonl"
		done
	done
}

: > "$raw/opcost.jsonl"
build "$HWT_TOP" "$out/op_obj" "$out/op_bench" || die "cannot build op_bench"
doors "$HWT_TOP" "$out/op_bench"
# the module of HWT_OPCOST_BEFORE (a commit; by default the tree before
# op_bench came, whose first round of issue 48 it does not see: that
# round's befores are the icount rows') under this harness, for the
# before column
before=${HWT_OPCOST_BEFORE:-329bbef}
if git -C "$HWT_TOP" cat-file -e "$before^{commit}" 2>/dev/null; then
	rm -rf "$out/op_before"
	mkdir -p "$out/op_before"
	git -C "$HWT_TOP" archive HEAD bench tests/native uapi | tar -x -C "$out/op_before"
	git -C "$HWT_TOP" archive "$before" kmod | tar -x -C "$out/op_before"
	if build "$out/op_before" "$out/op_before/obj" "$out/op_bench_before" \
		2> "$out/op_before.log"; then
		doors "$out/op_before" "$out/op_bench_before" \
			"$(git -C "$HWT_TOP" rev-parse --short "$before^{commit}")"
	else
		log "the module of $before does not build under op_bench (see $out/op_before.log)"
	fi
fi
