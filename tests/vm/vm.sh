#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make vm: boot Debian's stock 6.12 kernel in QEMU with hwtimer loaded and
# run the demo (tests/vm/demo.sh). From a terminal it then offers a shell in
# the guest; without one (or with CI=true) it powers off after the demo.
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

"$HWT_TOP/scripts/deps.sh"
src=$(hwt_src_dir)
read -r label hdr _ <<<"${HWT_STOCK_KERNELS[1]}"
rel=$(hwt_stock_release "$hdr")
out=$HWT_OUT/vm
log "building hwtimer against Debian's $label kernel ($rel)"
"$HWT_TOP/tests/vm/build.sh" "$(hwt_stock_headers "$rel")" "$out"
make -s -C "$HWT_TOP" user BUILD="$out/user" KSFT_DIR="$src/tools/testing/selftests"
"$HWT_TOP/tests/vm/initramfs.sh" "$out/initrd.gz" "$out/modules" bin="$out/user/bin"

mode=demo
if [ -t 0 ] && [ -t 1 ] && [ "${CI:-}" != true ]; then
	mode=shell
fi
log "booting (TCG, 2 vCPUs); the demo follows"
"$HWT_TOP/tests/vm/qemu.sh" "$(hwt_stock_image "$rel")" "$out/initrd.gz" "$mode" - \
	"$out/results.log" 3600 quiet
