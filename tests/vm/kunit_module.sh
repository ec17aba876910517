#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Debian's stock kernels are built without KUnit (# CONFIG_KUNIT is not set),
# yet upstream KUnit also builds as a module (CONFIG_KUNIT=m). Build that
# kunit.ko out of tree, from the kernel source of the same upstream version,
# against the stock kernel's headers, so that the KUnit suites run on stock
# kernels too (the 6.12 PREEMPT_RT one above all). Two things differ from
# an in-tree CONFIG_KUNIT=m: the hooks that are normally built in
# (lib/kunit/hooks.c) go into the module, since the stock kernel has none,
# and user_alloc.c is left out, as it needs symbols the kernel exports only
# when it has KUnit. The suites are then built with CONFIG_KUNIT_MODULE
# defined (see Kbuild, HWT_KUNIT_MODULE).
#
# usage: kunit_module.sh SRC KDIR OUTDIR   (OUTDIR gets kunit.ko and
#        Module.symvers; exits 2 if SRC is not KDIR's version)
set -euo pipefail
. "$(dirname "$0")/common.sh"

src=$1 kdir=$2 out=$3
rel=$(cat "$kdir/include/config/kernel.release")
want=${rel%%[-+]*}
have=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
if [ "$want" != "$have" ]; then
	log "no kunit.ko for $rel: the source is $have"
	exit 2
fi
rm -rf "$out"
mkdir -p "$out"
cp "$src"/lib/kunit/*.[ch] "$out/"
rm -f "$out"/*-test.c "$out"/*_test.c "$out/user_alloc.c"
cat > "$out/Kbuild" <<'KB'
ccflags-y := -DCONFIG_KUNIT_MODULE=1 -DCONFIG_KUNIT_DEBUGFS=1 \
	-DCONFIG_KUNIT_DEFAULT_ENABLED=1 -DCONFIG_KUNIT_DEFAULT_TIMEOUT=300 \
	-I$(src)
obj-m := kunit.o
kunit-y := test.o resource.o static_stub.o string-stream.o assert.o \
	try-catch.o executor.o attributes.o device.o platform.o debugfs.o \
	hooks.o
KB
if ! make -C "$kdir" M="$out" -j"$(nproc)" modules >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "kunit.ko against $kdir failed"
fi
