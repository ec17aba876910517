# SPDX-License-Identifier: GPL-2.0
# Shared settings for the VM harness scripts. Sourced, not executed.

HWT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HWT_CACHE=${HWT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hwtimer}
HWT_OUT=${HWT_OUT:-$HWT_TOP/.vm}

# Debian's stock kernels for the compatibility matrix:
# "label headers-metapackage guest-mode [boot-option...]". They are never
# installed on the host: scripts/stock.sh unpacks each one's image and
# headers from Debian's .debs into the cache (hwt_stock_image,
# hwt_stock_headers).
# (tests/vm/init.sh modes: smoke runs the smoke tests, user every userspace
# test). Each runs every userspace test under another preemption model:
# 6.1 with none, where only the module's own resched points give the CPU
# up (tests/user/uring_test.c); stock 6.12 with full preemption, where a
# run that signals eventfds can be preempted (tests/user/signal_test.c);
# 6.12-rt. The debug guest is fully preemptible too.
HWT_STOCK_KERNELS=(
	"6.1 linux-headers-amd64 user preempt=none"
	"6.12 linux-headers-6.12-amd64 user preempt=full"
	"6.12-rt linux-headers-6.12-rt-amd64 user"
)

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The kernel source tree (extracted from linux-source-6.12 into the cache).
hwt_src_tarball() {
	ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || die "linux-source-6.12 is not installed (run scripts/deps.sh)"
}

hwt_src_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || die "linux-source-6.12 is not installed"
}

hwt_src_dir() {
	local ver dir
	ver=$(hwt_src_version)
	dir=$HWT_CACHE/src/linux-$ver
	if [ ! -f "$dir/.extracted" ]; then
		log "extracting $(hwt_src_tarball) into $dir"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xJf "$(hwt_src_tarball)" -C "$dir.tmp" --strip-components=1
		touch "$dir.tmp/.extracted"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# Release string of the kernel a headers metapackage stands for, e.g.
# 6.1.0-56-amd64, from apt's lists (nothing needs to be installed).
hwt_stock_release() {
	local meta=$1 dep
	dep=$(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\([^ ]*\)$/\1/p' | head -n1)
	[ -n "$dep" ] || die "cannot tell which kernel $meta stands for (run scripts/deps.sh)"
	echo "$dep"
}

# Where scripts/stock.sh unpacked a stock kernel: its image and System.map
# under boot/, its headers (a tree to build modules against) under usr/src/.
hwt_stock_root() {
	local dir=$HWT_CACHE/stock/$1
	[ -f "$dir/.done" ] || die "stock kernel $1 is not in $HWT_CACHE/stock (run scripts/deps.sh)"
	echo "$dir"
}
hwt_stock_image() { local r; r=$(hwt_stock_root "$1") && echo "$r/boot/vmlinuz-$1"; }
hwt_stock_headers() { local r; r=$(hwt_stock_root "$1") && echo "$r/usr/src/linux-headers-$1"; }
# the Debian version of the headers that were unpacked, e.g. 6.1.192-2
hwt_stock_version() { local r; r=$(hwt_stock_root "$1") && cat "$r/.version"; }

# What a module build needs from the repository (uapi/ may not exist yet).
hwt_kbuild_sources() {
	local d
	for d in Kbuild VERSION kmod uapi tests; do
		[ -e "$HWT_TOP/$d" ] && echo "$HWT_TOP/$d"
	done
}

# hwt_dev_bench USER OUT: bench/dev_bench, static, against the library
# that "make lib BUILD=USER" built
hwt_dev_bench() {
	local b=$HWT_TOP/bench
	gcc -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -static \
		-I"$HWT_TOP/uapi" -I"$HWT_TOP/userspace-tool/lib" -I"$1/include" \
		"$b/dev_bench.c" "$b/dev_bench_cpu.c" "$b/dev_bench_expiry.c" \
		"$b/dev_bench_trace.c" "$b/dev_bench_uring.c" "$b/dev_bench_victim.c" \
		"$b/uheap.c" "$1/lib/libhwtimer.a" -luring -pthread -o "$2"
}

# hwt_trace_guest_build REL OUT: what bench/trace_rate.sh's and
# bench/path_trace.sh's guests run: the module against stock kernel REL in
# OUT/mod (its log OUT/build.log), the library in OUT/user and dev_bench in
# OUT/guest/dev_bench.bin
hwt_trace_guest_build() {
	local rel=$1 out=$2
	"$HWT_TOP/tests/vm/build.sh" "$(hwt_stock_headers "$rel")" "$out/mod" > "$out/build.log" 2>&1 ||
		die "module build failed (see $out/build.log)"
	make -s -C "$HWT_TOP" lib BUILD="$out/user" KSFT_DIR="$(hwt_src_dir)/tools/testing/selftests" ||
		die "cannot build libhwtimer"
	mkdir -p "$out/guest"
	hwt_dev_bench "$out/user" "$out/guest/dev_bench.bin" || die "cannot build dev_bench"
}

# hwt_cputime_ko KDIR OUT: bench/hwt_cputime.c built against KDIR into
# OUT/hwt_cputime.ko (every CPU's idle time to the microsecond, for
# dev_bench's CPU per timer in the icount guests)
hwt_cputime_ko() {
	mkdir -p "$2/src"
	cp "$HWT_TOP/bench/hwt_cputime.c" "$2/src/"
	echo 'obj-m := hwt_cputime.o' > "$2/src/Kbuild"
	make -C "$1" M="$2/src" modules >"$2/build.log" 2>&1 &&
		! grep -E 'warning:|WARNING:' "$2/build.log" &&
		cp "$2/src/hwt_cputime.ko" "$2/"
}
