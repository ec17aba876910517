#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the module and its KUnit/test modules against one kernel tree, in a
# private copy of the sources so that builds for several kernels never share
# object files. The .ko files land in OUTDIR/modules.
#
# usage: build.sh KDIR OUTDIR
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

kdir=$1 out=$2
[ -d "$kdir" ] || die "no kernel build tree at $kdir"
mkdir -p "$out/src" "$out/modules"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	$(hwt_kbuild_sources) "$out/src/"
rm -f "$out"/modules/*.ko
# a User-Mode Linux tree builds its modules with ARCH=um
arch=()
grep -q '^CONFIG_UML=y' "$kdir/.config" 2>/dev/null && arch=(ARCH=um)
if ! make -C "$kdir" "${arch[@]}" M="$out/src" -j"$(nproc)" modules >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	die "module build against $kdir failed"
fi
if grep -E 'warning:|WARNING:' "$out/build.log" >&2; then
	die "module build against $kdir has warnings"
fi
find "$out/src" -name '*.ko' -exec cp {} "$out/modules/" \;
