#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# hwtimer as the kernel's tree would take it: the series that
# scripts/create-patch.sh writes, checked, applied to the cached 6.12 tree,
# built and run there.
#
# usage: intree.sh build OUT
#   writes the series into OUT/series and prints a TAP document: the
#   series is written, each patch is checkpatch --strict clean, it applies
#   to the tree; then, in a hard-linked copy of the tree, kunit.py builds a
#   User-Mode Linux kernel with hwtimer and its suites built in (=y) and
#   runs them (OUT/kunit.results, with the kernel's output in
#   OUT/kunit.console); and an x86 kernel from
#   tests/vm/intree.config, with hwtimer and its suites as modules (=m), is
#   built with the tree's kselftests for hwtimer, and packed with them into
#   OUT/initrd.gz for a guest (tests/vm/qemu.sh OUT/bzImage ... intree).
#
# Both kernels' objects stay in the cache, so that a later run rebuilds
# what the series changed and little else.
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

[ "${1:-}" = build ] && [ $# -eq 2 ] || die "usage: $0 build OUT"
out=$(realpath -m "$2")
src=$(hwt_src_dir)
cache=$HWT_CACHE/intree
tree=$cache/linux
jobs=${HWT_INTREE_JOBS:-$(nproc)}
mkdir -p "$out" "$cache"
rm -f "$out/bzImage" "$out/initrd.gz" "$out/kunit.results" "$out/kunit.console"

# The TAP document goes out whole at the end, its plan first: kunit.py's
# parser, which reads every section, takes a plan only there.
n=0
body=$out/build.tap
: > "$body"
tap() {	# tap OK|FAIL DESCRIPTION [LOG]: a TAP line, LOG's tail as diagnostics
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 25 "$3" | sed 's/^/# /'
	fi >> "$body"
}
finish() {
	echo "TAP version 13"
	echo "1..$n"
	cat "$body"
	exit 0
}

# the series, and each patch as checkpatch sees it
if "$HWT_TOP/scripts/create-patch.sh" -o "$out/series" "$src" > "$out/create-patch.log" 2>&1; then
	tap OK "create-patch.sh writes the series ($(ls "$out/series" | wc -l) patches)"
else
	tap FAIL "create-patch.sh writes the series" "$out/create-patch.log"
	finish
fi
for p in "$out"/series/*.patch; do
	log=$out/$(basename "$p" .patch).checkpatch
	# from OUT: in a git checkout, --strict leaves a cache of camel-case
	# words in the current directory
	(cd "$out" && perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse "$p") > "$log" 2>&1
	# the tree is not a git checkout: checkpatch says so, and nothing else
	if grep -vE '^(Use of uninitialized value|find: )' "$log" | grep -q .; then
		tap FAIL "checkpatch --strict: $(basename "$p")" "$log"
	else
		tap OK "checkpatch --strict: $(basename "$p")"
	fi
done

# A copy of the tree whose unchanged files are the cached tree's, hard
# linked: patch(1) writes each file it changes anew, and every build below
# writes only into its own output directory.
rm -rf "$tree"
cp -al "$src" "$tree" || die "cannot copy $src"
# User-Mode Linux needs the same fixes as tests/vm/kernel.sh gives it
for p in "$HWT_TOP"/tests/vm/uml-*.patch; do
	patch -d "$tree" -p1 -R -f -s --dry-run < "$p" > /dev/null 2>&1 && continue
	patch -d "$tree" -p1 -N -s < "$p" > /dev/null || die "cannot apply $p"
done
applied=1
for p in "$out"/series/*.patch; do
	patch -d "$tree" -p1 -N -s < "$p" > "$out/apply.log" 2>&1 || { applied=0; break; }
done
# A file the series changes keeps the time it had when the series last
# changed it so, and a build redoes only what changed since: the series
# touches include/linux/hrtimer.h, and UML's patches its thread_info, which
# most of the kernel includes.
prev=$cache/prev
for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$HWT_TOP"/tests/vm/uml-*.patch \
	"$out"/series/*.patch | sort -u); do
	[ -f "$tree/$f" ] || continue
	if cmp -s "$tree/$f" "$prev/$f"; then
		touch -r "$prev/$f" "$tree/$f"
	else
		mkdir -p "$prev/$(dirname "$f")"
		cp -p "$tree/$f" "$prev/$f"
	fi
done
if [ $applied = 1 ]; then
	tap OK "the series applies to $(basename "$src")"
else
	tap FAIL "the series applies to $(basename "$src")" "$out/apply.log"
	finish
fi

# =y: kunit.py, as a kernel developer runs a subsystem's suites; on this
# host its UML needs the bigger stacks tests/vm/uml.config gives it (the
# host's XSAVE area is on them: tests/vm/uml-xstate.patch), and hrtimers
# in high-resolution mode, as the guests have them. kunit.py's UML
# defaults enable PCI over virtio, which 6.12 WARNs about at boot when no
# device ID is configured: the suites need no PCI.
if python3 "$tree/tools/testing/kunit/kunit.py" run --kunitconfig="$tree/drivers/misc/hwtimer" \
	--kconfig_add CONFIG_KERNEL_STACK_ORDER=4 --kconfig_add CONFIG_HIGH_RES_TIMERS=y \
	--kconfig_add CONFIG_UML_PCI_OVER_VIRTIO=n \
	--build_dir="$cache/kunit-um" --jobs="$jobs" --timeout=900 --raw_output=kunit \
	> "$out/kunit.raw" 2> "$out/kunit.log"; then
	tap OK "kunit.py run --kunitconfig=drivers/misc/hwtimer (User-Mode Linux, =y)"
else
	cat "$out/kunit.raw" >> "$out/kunit.log"
	tap FAIL "kunit.py run --kunitconfig=drivers/misc/hwtimer (User-Mode Linux, =y)" "$out/kunit.log"
fi
# the suites' KTAP as a results section (tests/vm/report.py), and the
# kernel's whole output, which kunit.py keeps, as its console
{
	echo "=== hwt-begin kunit.py"
	sed -n '/^KTAP version/,$p' "$out/kunit.raw"
	echo "=== hwt-end kunit.py rc=0"
	echo "=== hwt-done"
} > "$out/kunit.results"
cp "$cache/kunit-um/test.log" "$out/kunit.console" 2>/dev/null

# =m: an x86 kernel of the tree, configured once and then built as it
# changes
kout=$cache/x86
kmake() { make -C "$tree" O="$kout" ARCH=x86_64 -j"$jobs" "$@"; }
frag=$HWT_TOP/tests/vm/intree.config
fragsum=$(sha256sum < "$frag" | cut -c1-16)
if [ "$(cat "$kout/.fragment" 2>/dev/null)" != "$fragsum" ]; then
	rm -rf "$kout"
	mkdir -p "$kout"
	kmake tinyconfig > /dev/null 2>&1 &&
		(cd "$tree" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$kout" \
			"$kout/.config" "$frag") > /dev/null 2>&1 &&
		echo "$fragsum" > "$kout/.fragment"
fi
kmake olddefconfig > "$out/config.log" 2>&1
missing=$(grep '^CONFIG_' "$frag" | while read -r line; do
	grep -qxF "$line" "$kout/.config" || echo "$line"
done)
if [ -z "$missing" ]; then
	tap OK "intree.config survives olddefconfig (CONFIG_HWTIMER=m)"
else
	echo "$missing" > "$out/config.log"
	tap FAIL "intree.config survives olddefconfig (CONFIG_HWTIMER=m)" "$out/config.log"
	finish
fi
if kmake bzImage modules headers > "$out/kernel.log" 2>&1 &&
	[ -f "$kout/drivers/misc/hwtimer/hwtimer.ko" ]; then
	tap OK "the tree builds with hwtimer and its suites as modules (x86, =m)"
else
	tap FAIL "the tree builds with hwtimer and its suites as modules (x86, =m)" "$out/kernel.log"
	finish
fi
# the kselftests, static: the guest has no C library
ksft=$out/kselftest
rm -rf "$ksft"
mkdir -p "$ksft"
if make -C "$tree/tools/testing/selftests/hwtimer" OUTPUT="$ksft" \
	KHDR_INCLUDES="-isystem $kout/usr/include" LDFLAGS=-static \
	> "$out/kselftest.log" 2>&1; then
	tap OK "tools/testing/selftests/hwtimer builds ($(find "$ksft" -name '*_test' | wc -l) tests)"
else
	tap FAIL "tools/testing/selftests/hwtimer builds" "$out/kselftest.log"
	finish
fi
mods=$out/modules
rm -rf "$mods"
mkdir -p "$mods"
cp "$kout"/drivers/misc/hwtimer/*.ko "$mods/"
cp "$kout/arch/x86/boot/bzImage" "$out/bzImage"
"$HWT_TOP/tests/vm/initramfs.sh" "$out/initrd.gz" "$mods" tests="$ksft"
finish
