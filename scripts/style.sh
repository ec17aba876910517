#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make style: an SPDX id on every file (scripts/spdx.sh), the kernel tree's
# own checkpatch.pl --strict on kmod/ and uapi/, and sparse (C=2) on a build
# against the debug kernel. All must be silent.
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$HWT_TOP/scripts/deps.sh"
src=$(hwt_src_dir)
cd "$HWT_TOP"
mapfile -t files < <(git ls-files -co --exclude-standard -- 'kmod/*.[ch]' 'uapi/*.h' 2>/dev/null ||
	find kmod uapi -name '*.[ch]')
rc=0
log "SPDX-License-Identifier on every file"
"$HWT_TOP/scripts/spdx.sh" || rc=1
log "checkpatch --strict on ${#files[@]} files"
if ! perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "${files[@]}"; then
	rc=1
fi

kdir=$("$HWT_TOP/tests/vm/kernel.sh")
out=$HWT_OUT/style
mkdir -p "$out"
rsync -a --delete $(hwt_kbuild_sources) "$out/"
log "sparse (C=2) against $kdir"
make -s -C "$kdir" M="$out" C=2 modules >"$out/sparse.log" 2>&1 || rc=1
if grep -E 'warning|error' "$out/sparse.log"; then
	rc=1
fi
[ $rc -eq 0 ] && log "style: clean"
exit $rc
