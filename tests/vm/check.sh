#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of hwtimer, from a fresh Debian 12 machine.
#
#  1. install the build tools that are missing from Debian's registry, and
#     fetch Debian's stock kernels into the cache (never onto the host)
#  2. run the wheel core's KUnit suite natively (ASan + UBSan)
#  3. build (or reuse) the debug kernel, build the module, its KUnit modules
#     and the userspace tests, and run them all in a TCG guest; the same
#     KUnit suites again on a PREEMPT_RT debug kernel, and in User-Mode
#     Linux (KASAN, lockdep) at the CPU's own speed
#  4. build against Debian's stock 6.1, 6.12 and 6.12 PREEMPT_RT and run
#     every userspace test on each, under three preemption models
#     (scripts/common.sh)
#  5. build the Debian packages, install them in a Debian 12 chroot where
#     DKMS builds the module for stock 6.1 and 6.12, and boot each stock
#     kernel with that module, the packaged hwtimerctl and a program built
#     against libhwtimer-dev (tests/vm/pkg_check.sh)
#  6. the in-tree series (scripts/create-patch.sh) against the cached 6.12
#     tree: checkpatch on each patch, kunit.py under User-Mode Linux (=y),
#     and a guest of the patched tree's kernel with hwtimer as its module
#     (=m) running the KUnit modules and the kselftests (tests/vm/intree.sh)
#  7. parse everything with kunit.py, scan the consoles for splats, and end
#     with "N passed, N failed, N skipped"
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

res=$HWT_OUT/results
rm -rf "$res"
mkdir -p "$res"
host=$res/host.results		# sections produced on the host
times=$res/times
: > "$host"
: > "$times"
runs=("host:$host")
builds=()

timed() {	# timed LABEL CMD...: run, log the duration, return its status
	local label=$1 t=$SECONDS rc
	shift
	log "$label"
	"$@"
	rc=$?
	printf '%-40s %4d s\n' "$label" $((SECONDS - t)) >> "$times"
	return $rc
}
built() {	# record a build step as a test case
	if [ "$2" -eq 0 ]; then builds+=("ok $1"); else builds+=("not ok $1"); fi
}

"$HWT_TOP/tests/host/untouched_check.sh" --snapshot "$res/untouched"
timed "install packages, fetch the stock kernels" "$HWT_TOP/scripts/deps.sh" || die "cannot install the packages"
src=$(hwt_src_dir)

# Step 5's chroot, made while the kernels build (once: it is cached): the
# stock kernels but PREEMPT_RT, whose headers it installs
pkg_rels=()
for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label hdr _ <<<"$entry"
	[[ $label == *-rt ]] || pkg_rels+=("$(hwt_stock_release "$hdr")")
done
"$HWT_TOP/tests/vm/pkg_check.sh" --prepare "${pkg_rels[@]}" > "$res/pkgroot.log" 2>&1 &
pkgroot=$!
kunit_py=$src/tools/testing/kunit/kunit.py
ksft=$src/tools/testing/selftests

# section NAME LABEL CMD...: a timed step whose output is a results section
section() {
	local name=$1 rc
	shift
	echo "=== hwt-begin $name"
	timed "$@"
	rc=$?
	echo "=== hwt-end $name rc=$rc"
}

# 2. native core tests
stock_rels=()
for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r _ hdr _ <<<"$entry"
	stock_rels+=("$(hwt_stock_release "$hdr")")
done
{
	section native:core "native core tests (ASan+UBSan)" \
		make -s -C "$HWT_TOP" native-check BUILD="$HWT_OUT/native"
	# hwtimerctl's parsers, command lines and statistics: a section (a TAP
	# document) per program, so that every case is counted
	make -s -C "$HWT_TOP" host-tests BUILD="$HWT_OUT/native" KSFT_DIR="$ksft" >&2
	for t in "$HWT_TOP"/tests/host/*_test.c; do
		t=$(basename "$t" .c)
		section "host:$t" "hwtimerctl $t (ASan+UBSan)" "$HWT_OUT/native/host/$t"
	done
	section host:fuzz "libFuzzer on the wheel core (60 s)" \
		"$HWT_TOP/tests/host/fuzz_check.sh" "$HWT_OUT/fuzz" 60
	section host:uapi "uapi header hygiene" "$HWT_TOP/tests/host/uapi_check.sh" "$src"
	section host:install "make install/uninstall, DKMS builds" \
		"$HWT_TOP/tests/host/install_check.sh" "$ksft" "${stock_rels[@]}"
	section host:version "one version everywhere, make dist" \
		"$HWT_TOP/tests/host/version_check.sh"
} >> "$host" 2>&1

# 3. the debug kernel and everything in it
timed "library, CLI and userspace tests (static)" make -s -C "$HWT_TOP" user BUILD="$HWT_OUT/user" KSFT_DIR="$ksft" >"$res/user-build.log" 2>&1
rc=$?; built "build userspace tests" $rc
[ $rc -eq 0 ] || cat "$res/user-build.log" >&2

# debug_guest NAME FRAGMENT [MODE [APPEND]]: build (or reuse) a debug kernel
# from FRAGMENT, build everything against it and run MODE (default check) in
# it, with APPEND on its command line.
debug_guest() {
	local name=$1 frag=$2 mode=${3:-check} extra=${4:-} kdir rc
	kdir=$(timed "$name kernel (cached after the first run)" "$HWT_TOP/tests/vm/kernel.sh" "$frag")
	rc=$?; built "build $name kernel" $rc
	[ $rc -eq 0 ] || return
	timed "module against the $name kernel" "$HWT_TOP/tests/vm/build.sh" "$kdir" "$HWT_OUT/$name"
	rc=$?; built "build module against $name 6.12" $rc
	[ $rc -eq 0 ] || return
	"$HWT_TOP/tests/vm/initramfs.sh" "$HWT_OUT/$name/initrd.gz" "$HWT_OUT/$name/modules" \
		smoke="$HWT_OUT/user/smoke" tests="$HWT_OUT/user/tests" bin="$HWT_OUT/user/bin"
	timed "$name guest: $mode" "$HWT_TOP/tests/vm/qemu.sh" \
		"$kdir/arch/x86/boot/bzImage" "$HWT_OUT/$name/initrd.gz" $mode \
		"$res/$name.console" "$res/$name.results" $limit $long ${extra:+"$extra"}
	runs+=("$name:$res/$name.results:$res/$name.console:$?")
}

# make check-long (HWT_LONG=1): longer stress and fuzzing, and a KCSAN
# kernel besides the KASAN one
limit=2400 long=
[ -n "${HWT_LONG:-}" ] && limit=7200 long=hwt.long=1
# with the sched clock unstable, as a busy host's TCG guests often find
# theirs: local_clock() then stops within a tick while interrupts are off,
# and whatever times itself must not depend on it (hwt_cpu_clock())
debug_guest debug "$HWT_TOP/tests/vm/debug.config" check tsc=unstable
# the KUnit suites on PREEMPT_RT with lockdep: Debian's stock 6.12-rt has no
# KUnit (it runs every userspace test below instead)
debug_guest rt "$HWT_TOP/tests/vm/rt.config" kunit

# The KUnit suites again in User-Mode Linux, where the kernel's own code runs
# at the CPU's speed (tests/vm/uml.sh): one CPU, so the cases that need two
# skip there and run in the guests above.
uml_kunit() {
	local kdir rc
	kdir=$(timed "uml kernel (cached after the first run)" "$HWT_TOP/tests/vm/kernel.sh" "$HWT_TOP/tests/vm/uml.config")
	rc=$?; built "build uml kernel" $rc
	[ $rc -eq 0 ] || return
	timed "module against the uml kernel" "$HWT_TOP/tests/vm/build.sh" "$kdir" "$HWT_OUT/uml"
	rc=$?; built "build module against uml 6.12" $rc
	[ $rc -eq 0 ] || return
	"$HWT_TOP/tests/vm/initramfs.sh" "$HWT_OUT/uml/initrd.gz" "$HWT_OUT/uml/modules"
	timed "uml: kunit" "$HWT_TOP/tests/vm/uml.sh" "$kdir" "$HWT_OUT/uml/initrd.gz" kunit \
		"$res/uml.console" "$res/uml.results" $limit
	runs+=("uml:$res/uml.results:$res/uml.console:$?")
	# simulated time: the clock stands still while the CPU runs, so the
	# precision suite's bounds are exact (tests/kunit/timetravel_kunit.c)
	timed "uml, time-travel=inf-cpu: kunit" "$HWT_TOP/tests/vm/uml.sh" "$kdir" \
		"$HWT_OUT/uml/initrd.gz" kunit "$res/uml-tt.console" "$res/uml-tt.results" 600 \
		time-travel=inf-cpu hwt.only=hwtimer_timetravel_kunit \
		hwtimer_timetravel_kunit.time_travel=1
	runs+=("uml-tt:$res/uml-tt.results:$res/uml-tt.console:$?")
}
uml_kunit
[ -n "${HWT_LONG:-}" ] && debug_guest kcsan "$HWT_TOP/tests/vm/kcsan.config"

# The in-tree series (tests/vm/intree.sh), checked and built at the lowest
# priority while the stock guests below run, each on one host thread: its
# builds take what the guests leave, and every CPU once they are done
intree=$HWT_OUT/intree
nice -n 19 "$HWT_TOP/tests/vm/intree.sh" build "$intree" \
	> "$res/intree.tap" 2> "$res/intree.log" &
intree_pid=$!

# 4. the compatibility matrix
for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label hdr mode boot <<<"$entry"
	rel=$(hwt_stock_release "$hdr")
	timed "module against stock $label ($rel)" "$HWT_TOP/tests/vm/build.sh" "$(hwt_stock_headers "$rel")" "$HWT_OUT/stock-$label"
	rc=$?; built "build module against stock $label ($rel)" $rc
	[ $rc -eq 0 ] || continue
	"$HWT_TOP/tests/vm/initramfs.sh" "$HWT_OUT/stock-$label/initrd.gz" "$HWT_OUT/stock-$label/modules" \
		smoke="$HWT_OUT/user/smoke" bin="$HWT_OUT/user/bin" \
		$([ "$mode" = user ] && echo tests="$HWT_OUT/user/tests")
	# one host thread for every vCPU: Debian's stock kernels patch their
	# own text racing another vCPU under multi-threaded TCG (qemu.sh)
	timed "stock $label guest${boot:+ ($boot)}: $mode tests" env HWT_QEMU_TCG_THREAD=single \
		"$HWT_TOP/tests/vm/qemu.sh" \
		"$(hwt_stock_image "$rel")" "$HWT_OUT/stock-$label/initrd.gz" "$mode" \
		"$res/stock-$label.console" "$res/stock-$label.results" 1800 $boot
	runs+=("stock-$label:$res/stock-$label.results:$res/stock-$label.console:$?")
done

# 5. the Debian packages; pkg_check.sh reports a chroot that could not be
# made, which --prepare left in pkgroot.log
timed "Debian chroot (made in the background)" wait $pkgroot
section host:packages "Debian packages: make deb, apt, DKMS, pkg-config (chroot)" \
	"$HWT_TOP/tests/vm/pkg_check.sh" "$HWT_OUT/pkg" "${pkg_rels[@]}" >> "$host" 2>&1
for rel in "${pkg_rels[@]}"; do
	[ -f "$HWT_OUT/pkg/$rel.initrd.gz" ] || continue
	timed "stock $rel guest: the packages' module, hwtimerctl, a program" \
		env HWT_QEMU_TCG_THREAD=single "$HWT_TOP/tests/vm/qemu.sh" "$(hwt_stock_image "$rel")" \
		"$HWT_OUT/pkg/$rel.initrd.gz" user "$res/pkg-$rel.console" "$res/pkg-$rel.results" 600
	runs+=("pkg-$rel:$res/pkg-$rel.results:$res/pkg-$rel.console:$?")
done

# 6. the in-tree series: its checks and builds, kunit.py's run under
# User-Mode Linux (=y), and a guest of the tree's x86 kernel that loads
# hwtimer and its suites as the tree's modules (=m) and runs the kselftests
timed "in-tree series: checkpatch, kunit.py, x86 build (in the background)" wait $intree_pid
section host:intree "the in-tree series" cat "$res/intree.tap" >> "$host" 2>&1
[ -s "$res/intree.log" ] && tail -n 20 "$res/intree.log" >&2
if [ -f "$intree/kunit.results" ]; then
	runs+=("intree-kunit:$intree/kunit.results:$intree/kunit.console")
fi
if [ -f "$intree/initrd.gz" ]; then
	timed "in-tree guest: KUnit modules and kselftests" "$HWT_TOP/tests/vm/qemu.sh" \
		"$intree/bzImage" "$intree/initrd.gz" intree "$res/intree.console" \
		"$res/intree.results" 1200
	runs+=("intree:$res/intree.results:$res/intree.console:$?")
fi

section host:untouched "the machine: build tools installed, no kernel" \
	"$HWT_TOP/tests/host/untouched_check.sh" "$res/untouched" >> "$host" 2>&1

{
	echo "=== hwt-begin host:builds"
	echo "TAP version 13"
	echo "1..${#builds[@]}"
	i=0
	for b in "${builds[@]}"; do
		i=$((i + 1))
		echo "${b/ok /ok $i }"
	done
	echo "=== hwt-end host:builds rc=0"
	echo "=== hwt-done"
} >> "$host"

echo "Stage times:"
cat "$times"
python3 "$HWT_TOP/tests/vm/report.py" "$kunit_py" "${runs[@]}"
