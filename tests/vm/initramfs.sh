#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pack a guest initramfs: busybox, tests/vm/init.sh as /init, and hwtimer's
# artefacts under /hwt.
#
# usage: initramfs.sh OUT.cpio.gz MODULES_DIR [KIND=DIR]...
#   KIND is kunit (KUnit modules), tests (userspace tests run by "check"
#   and "user"),
#   smoke (tests run by "smoke"), bench (run by "bench") or bin (programs
#   put on PATH); or root, a tree copied as it is to the initramfs's root
#   (shared libraries that dynamically linked programs need)
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

out=$1 mods=$2
shift 2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# mktemp made it 0700: unprivileged users in the guest need to get in
chmod 755 "$stage"

mkdir -p "$stage"/{bin,hwt/modules,hwt/kunit,hwt/tests,hwt/smoke,hwt/bench,hwt/bin,etc,root}
cp /bin/busybox "$stage/bin/busybox"
install -m 0755 "$HWT_TOP/tests/vm/init.sh" "$stage/init"
[ -f "$HWT_TOP/tests/vm/demo.sh" ] && install -m 0755 "$HWT_TOP/tests/vm/demo.sh" "$stage/hwt/demo.sh"
cp "$mods"/hwtimer*.ko "$stage/hwt/modules/" 2>/dev/null || die "no modules in $mods"
for kv in "$@"; do
	kind=${kv%%=*} dir=${kv#*=}
	[ -d "$dir" ] || continue
	if [ "$kind" = root ]; then
		cp -a "$dir/." "$stage/"
		continue
	fi
	find "$dir" -maxdepth 1 -type f -perm -u+x -exec cp {} "$stage/hwt/$kind/" \;
	find "$dir" -maxdepth 1 -name '*.ko' -exec cp {} "$stage/hwt/$kind/" \;
done
# KUnit modules live apart from the module proper
mv "$stage"/hwt/modules/*_kunit.ko "$stage/hwt/kunit/" 2>/dev/null || true
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/bin/sh\nhwtuser:x:1000:1000:hwtuser:/tmp:/bin/sh\n' > "$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\nhwtuser:x:1000:\n' > "$stage/etc/group"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$out"
