#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What an admin does on a real box, as TAP, on the host (which cannot load
# modules, but can build and install them): make install into a DESTDIR,
# build a program against the installed library with pkg-config, make
# uninstall, and dkms build, against every stock kernel's headers (those
# scripts/stock.sh unpacked into the cache: none is installed on the host),
# of the sources make install-dkms-src stages (make dkms-install's).
#
# usage: install_check.sh KSFT_DIR RELEASE...
set -uo pipefail
ksft=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/../../scripts/common.sh"

# a private copy: builds must not leave objects in the work tree
src=$tmp/src
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard 2>/dev/null || find . -type f -not -path './.git/*') |
	grep -v '^\.vm/\|^build/' | (cd "$top" && xargs -d '\n' cp --parents -t "$src")
dest=$tmp/root
rel=$1
kdir=$(hwt_stock_headers "$rel") || exit 1
mk() { make -s -C "$src" BUILD="$tmp/build" KSFT_DIR="$ksft" "$@"; }

cat > "$tmp/prog.c" <<'EOC'
#include <errno.h>
#include <stdio.h>
#include <libhwtimer.h>
int main(void)
{
	int fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);

	/* the host has no module: the library must say so cleanly */
	printf("%d %s\n", fd, hwtimer_strerror(fd));
	return fd >= 0 || fd == -ENOENT ? 0 : 1;
}
EOC

installed() {	# every file make uninstall would remove exists
	local inc=$dest/usr/local/include/hwtimer
	for f in "$dest"/usr/local/bin/hwtimerctl "$dest"/usr/local/lib/libhwtimer.a \
		"$dest"/usr/local/lib/libhwtimer.so.1 "$dest"/usr/local/lib/pkgconfig/hwtimer.pc \
		"$inc"/libhwtimer.h "$inc"/libhwtimer_version.h "$inc"/linux/hwtimer.h \
		"$dest"/usr/lib/modules-load.d/hwtimer.conf \
		"$dest/lib/modules/$rel/extra/"hwtimer.ko* \
		"$dest"/usr/local/share/man/man1/hwtimerctl.1 "$dest"/usr/local/share/man/man7/libhwtimer.7 \
		"$dest"/usr/local/share/man/man3/hwtimer_add.3 "$dest"/usr/local/share/man/man4/hwtimer.4; do
		[ -e "$f" ] || { echo "missing $f"; return 1; }
	done
	grep -q 'extra/hwtimer.ko' "$dest/lib/modules/$rel/modules.dep" || return 1
	# no udev rule: the module's own mode stands (udev/60-hwtimer.rules is
	# for an administrator to copy to /etc)
	[ ! -e "$dest/lib/udev" ] && [ ! -e "$dest/etc" ] || { echo "a udev rule installed"; return 1; }
}

# linux-libc-dev owns INCLUDEDIR/linux; a staged install creates no group
group_sum=$(cksum < /etc/group)
own_folder() {
	[ ! -e "$dest/usr/local/include/linux" ] && [ ! -e "$dest/usr/local/include/libhwtimer.h" ] ||
		{ echo "headers outside include/hwtimer/"; return 1; }
	[ "$(cksum < /etc/group)" = "$group_sum" ] || { echo "/etc/group changed"; return 1; }
}

# the module, the CLI (linked against the library it installed) and the
# library carry VERSION
versioned() {
	local v mv cv
	v=$(cat "$top/VERSION")
	mv=$(modinfo -F version "$dest/lib/modules/$rel/extra/"hwtimer.ko*) &&
		cv=$(LD_LIBRARY_PATH=$dest/usr/local/lib "$dest"/usr/local/bin/hwtimerctl --version) || return 1
	echo "module $mv, hwtimerctl: $cv"
	ls -l "$dest/usr/local/lib/"libhwtimer.so*
	LD_LIBRARY_PATH=$dest/usr/local/lib ldd "$dest"/usr/local/bin/hwtimerctl > "$tmp/ldd" 2>&1
	grep libhwtimer "$tmp/ldd" || cat "$tmp/ldd"
	[ "$mv" = "$v" ] && [[ $cv == *" $v"* ]] && [ -e "$dest/usr/local/lib/libhwtimer.so.$v" ] &&
		grep -qF "libhwtimer.so.1 => $dest" "$tmp/ldd"
}

pkgconf() {
	PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$dest/usr/local/lib/pkgconfig \
		pkg-config "$@" hwtimer
}

built_against_install() {
	local ldd_out
	# shellcheck disable=SC2046
	gcc -Wall -Werror $(pkgconf --cflags) "$tmp/prog.c" $(pkgconf --libs) -o "$tmp/prog" &&
		LD_LIBRARY_PATH=$dest/usr/local/lib "$tmp/prog" &&
		ldd_out=$(LD_LIBRARY_PATH=$dest/usr/local/lib ldd "$tmp/prog") &&
		# not "ldd | grep -q": grep quits at the match, ldd may then die of
		# SIGPIPE, and pipefail turns that into a failure
		grep -qF "libhwtimer.so.1 => $dest" <<<"$ldd_out"
}

# the installed library exports exactly what its header declares, each at
# the version its map gives (the version node whose block names it)
exports_the_header() {
	local lib=$dest/usr/local/lib/libhwtimer.so.1 hdr=$dest/usr/local/include/hwtimer/libhwtimer.h
	local map=$top/userspace-tool/lib/libhwtimer.map
	diff <(sed -n 's/^[a-z][a-z0-9_ ]*[ *]\(hwtimer_[a-z0-9_]*\)(.*/\1/p' "$hdr" | sort |
		join -a 1 - <(awk '/^LIBHWTIMER_[0-9.]* *{/ { v = $1 }
			/^[ \t]*hwtimer_[a-z0-9_]*;/ { sub(/;/, "", $1); print $1, v }' "$map" | sort) |
		awk '{ print $1 "@@" $2 }') \
		<(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)
}

uninstalled() {
	local left
	left=$(find "$dest" -type f -not -name 'modules.*' -o -type l | sort)
	[ -z "$left" ] || { echo "left behind:"; echo "$left"; return 1; }
}

# the sources make dkms-install copies: the module's build needs nothing else
version=$(cat "$top/VERSION")
dkms_src=$tmp/dkms-root/usr/src/hwtimer-$version
dkms_staged() {
	mk install-dkms-src DESTDIR="$tmp/dkms-root" || return 1
	grep -qx "PACKAGE_VERSION=\"$version\"" "$dkms_src/dkms.conf" &&
		grep -qx 'CLEAN="true"' "$dkms_src/dkms.conf" &&
		[ -f "$dkms_src/Kbuild" ] && [ -f "$dkms_src/uapi/linux/hwtimer.h" ] &&
		[ -x "$dkms_src/dkms-post-build" ] &&
		[ ! -e "$dkms_src/tests" ] && [ ! -e "$dkms_src/kmod/example" ] && [ ! -e "$dkms_src/bench" ]
}

# BUILD_EXCLUSIVE_KERNEL, a regex because Debian 12's dkms 3.0.10 ignores
# BUILD_EXCLUSIVE_KERNEL_MIN: 6.1 and later, nothing older
dkms_exclusive() {
	(set +u; . "$dkms_src/dkms.conf"
	for k in 6.1.0-56-amd64 6.12.117+deb12-amd64 6.19.0 7.0.0-1-amd64 10.1.0; do
		[[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]] || { echo "$k excluded"; exit 1; }
	done
	for k in 5.10.0-30-amd64 6.0.12-1-amd64 4.19.0-27-amd64; do
		[[ ! $k =~ $BUILD_EXCLUSIVE_KERNEL ]] || { echo "$k not excluded"; exit 1; }
	done)
}

dkms() { command dkms --dkmstree "$tmp/dkms" --sourcetree "${dkms_src%/*}" "$@"; }

# a kernel older than 6.1: this DKMS does not try (77: excluded)
dkms_skips_old() {
	local rc
	mkdir -p "$tmp/dkms"
	dkms add -m hwtimer -v "$version" >/dev/null 2>&1
	dkms build -m hwtimer -v "$version" -k 5.10.0-30-amd64 --kernelsourcedir "$kdir"
	rc=$?
	echo "dkms build: $rc"
	[ $rc -eq 77 ] && [ ! -e "$tmp/dkms/hwtimer/$version/5.10.0-30-amd64" ]
}

# the module, and beside it (dkms-post-build) Module.symvers with hwtimer's
# exports and the in-kernel API's headers, for drivers that use the API
dkms_build() {
	local r=$1 d=$tmp/dkms/hwtimer/$version/$1/x86_64
	mkdir -p "$tmp/dkms"
	dkms add -m hwtimer -v "$version" >/dev/null 2>&1
	dkms build -m hwtimer -v "$version" -k "$r" --kernelsourcedir "$(hwt_stock_headers "$r")" &&
		[ "$(modinfo -F version "$d/module/hwtimer.ko"*)" = "$version" ] &&
		grep -q "	hwtimer_start	.*	EXPORT_SYMBOL_GPL" "$d/module/Module.symvers" &&
		cmp "$src/kmod/include/linux/hwtimer.h" "$d/include/linux/hwtimer.h" &&
		cmp "$src/kmod/include/linux/hwt_node.h" "$d/include/linux/hwt_node.h"
}

echo "TAP version 13"
echo "1..$((10 + $#))"
t "make install DESTDIR=... (module against $rel, library, CLI, headers, modules-load.d, man pages)" \
	mk install DESTDIR="$dest" KDIR="$kdir"
t "every installed file is in place and depmod knows the module" installed
t "headers in include/hwtimer/ only, and no group created by a staged install" own_folder
t "the module and hwtimerctl say VERSION; hwtimerctl uses the installed libhwtimer.so.1" versioned
t "a program builds and runs against the installed library via pkg-config" built_against_install
t "libhwtimer.so exports exactly the functions libhwtimer.h declares, versioned" exports_the_header
t "make uninstall removes every installed file" \
	sh -c "make -s -C '$src' BUILD='$tmp/build' uninstall DESTDIR='$dest' KDIR='$kdir' && $(declare -f uninstalled); dest='$dest' uninstalled"
t "make install-dkms-src stages the module's sources alone, with dkms.conf" dkms_staged
t "dkms.conf's BUILD_EXCLUSIVE_KERNEL takes 6.1 and later, nothing older" dkms_exclusive
t "dkms build skips a 5.10 kernel" dkms_skips_old
for r in "$@"; do
	t "dkms build against $r of the staged sources; Module.symvers and API headers beside" dkms_build "$r"
done
exit $fail
