#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) a test kernel: tinyconfig + a committed fragment, from
# Debian's linux-source-6.12. The build tree is cached outside the repository,
# keyed by source version and fragment hash, and the path of the cached build
# tree is printed on stdout. A fragment named uml*.config builds User-Mode
# Linux (ARCH=um, the ./linux binary), with tests/vm/uml-*.patch applied;
# the others an x86_64 bzImage.
#
# usage: kernel.sh [FRAGMENT]   (default tests/vm/debug.config)
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

frag=${1:-$HWT_TOP/tests/vm/debug.config}
[ -f "$frag" ] || die "no config fragment $frag"
frag=$(realpath "$frag")
src=$(hwt_src_dir)
arch=x86_64 image=bzImage patches=()
case $(basename "$frag") in
uml*)
	arch=um image=linux
	# UML needs a fix to boot on hosts with large XSAVE areas (see the patch)
	patches=("$HWT_TOP"/tests/vm/uml-*.patch)
	;;
esac
# the license line does not change the kernel: a cached build stays valid
key="$(hwt_src_version)-$(grep -hv 'SPDX-License-Identifier' "$frag" "${patches[@]}" | sha256sum | cut -c1-16)"
out=$HWT_CACHE/kernel/$(basename "$frag" .config)-$key

if [ -f "$out/.done" ]; then
	log "reusing cached kernel $out"
	echo "$out"
	exit 0
fi

# A patch goes into the shared source tree once; it touches only files
# that builds of its architecture compile.
for p in "${patches[@]}"; do
	patch -d "$src" -p1 -R -f -s --dry-run <"$p" >/dev/null 2>&1 && continue
	patch -d "$src" -p1 -N -s <"$p" >/dev/null || die "cannot apply $p to $src"
done
log "building the $(basename "$frag" .config) kernel in $out (this takes a few minutes once)"
# a tree left by a build that stopped is built on, not from scratch
mkdir -p "$out"
kmake() { make -C "$src" O="$out" ARCH=$arch -j"$(nproc)" "$@"; }
kmake tinyconfig >/dev/null
(cd "$src" && ARCH=$arch scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$frag") >/dev/null
kmake olddefconfig >/dev/null

# Every option of the fragment must have survived olddefconfig.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$out/.config" || { echo "  fragment asks for $line, got: $(grep -E "^(# )?${line%%=*}[= ]" "$out/.config" || echo unset)" >&2; missing=1; }
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		grep -q "^$opt=" "$out/.config" && { echo "  fragment disables $opt, but it is set" >&2; missing=1; }
		;;
	esac
done < "$frag"
[ $missing -eq 0 ] || die "config fragment $frag did not stick (see above)"

start=$SECONDS
if ! kmake $image modules modules_prepare >"$out/build.log" 2>&1; then
	grep -E -B2 -A8 '(error|Error [0-9])' "$out/build.log" | tail -n 40 >&2
	die "kernel build failed (log: $out/build.log)"
fi
log "$(basename "$frag" .config) kernel built in $((SECONDS - start)) s"
touch "$out/.done"
echo "$out"
