#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What an admin does on a real box, as TAP, on the host (which cannot load
# modules, but can build and install them): make install into a DESTDIR,
# build a program against the installed library with pkg-config, make
# uninstall, and dkms build against every stock kernel's headers.
#
# usage: install_check.sh KSFT_DIR RELEASE...
set -uo pipefail
ksft=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# a private copy: builds must not leave objects in the work tree
src=$tmp/src
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard 2>/dev/null || find . -type f -not -path './.git/*') |
	grep -v '^\.vm/\|^build/' | (cd "$top" && xargs -d '\n' cp --parents -t "$src")
dest=$tmp/root
rel=$1
kdir=/lib/modules/$rel/build
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
	for f in "$dest"/usr/local/bin/hwtimerctl "$dest"/usr/local/lib/libhwtimer.a \
		"$dest"/usr/local/lib/libhwtimer.so.1 "$dest"/usr/local/lib/pkgconfig/hwtimer.pc \
		"$dest"/usr/local/include/libhwtimer.h "$dest"/usr/local/include/linux/hwtimer.h \
		"$dest"/lib/udev/rules.d/60-hwtimer.rules "$dest/lib/modules/$rel/extra/"hwtimer.ko* \
		"$dest"/usr/local/share/man/man1/hwtimerctl.1 "$dest"/usr/local/share/man/man7/libhwtimer.7 \
		"$dest"/usr/local/share/man/man3/hwtimer_add.3; do
		[ -e "$f" ] || { echo "missing $f"; return 1; }
	done
	grep -q 'extra/hwtimer.ko' "$dest/lib/modules/$rel/modules.dep"
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
	local lib=$dest/usr/local/lib/libhwtimer.so.1 hdr=$dest/usr/local/include/libhwtimer.h
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

dkms_build() {
	local r=$1 tree=$tmp/dkms
	mkdir -p "$tree" "$tmp/dkms-src"
	rm -rf "$tmp/dkms-src/hwtimer-1.0.0"
	cp -r "$src" "$tmp/dkms-src/hwtimer-1.0.0"
	dkms --dkmstree "$tree" --sourcetree "$tmp/dkms-src" add -m hwtimer -v 1.0.0 >/dev/null 2>&1 || true
	dkms --dkmstree "$tree" --sourcetree "$tmp/dkms-src" build -m hwtimer -v 1.0.0 -k "$r" &&
		ls "$tree/hwtimer/1.0.0/$r/x86_64/module/hwtimer.ko"*
}

echo "TAP version 13"
echo "1..$((5 + $#))"
t "make install DESTDIR=... (module against $rel, library, CLI, headers, udev rule, man pages)" \
	mk install DESTDIR="$dest" KDIR="$kdir"
t "every installed file is in place and depmod knows the module" installed
t "a program builds and runs against the installed library via pkg-config" built_against_install
t "libhwtimer.so exports exactly the functions libhwtimer.h declares, versioned" exports_the_header
t "make uninstall removes every installed file" \
	sh -c "make -s -C '$src' BUILD='$tmp/build' uninstall DESTDIR='$dest' KDIR='$kdir' && $(declare -f uninstalled); dest='$dest' uninstalled"
for r in "$@"; do
	t "dkms build against $r" dkms_build "$r"
done
exit $fail
