#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# One release, named in VERSION and nowhere else by hand, as TAP: every
# place the build writes it (libhwtimer_version.h, the shared library's
# file name and run-time query, hwtimer.pc, hwtimerctl --version, dkms.conf,
# the man pages' .TH lines, make dist's tarball) says the same, and so do
# the files that must name it themselves (NEWS, debian/changelog); the
# Debian symbols file lists exactly libhwtimer.map's functions, each at the
# release of its version node. install_check.sh checks the module's
# MODULE_VERSION, which needs a kernel tree.
#
# usage: version_check.sh
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

v=$(cat "$top/VERSION")
IFS=. read -r major minor patch <<<"$v"
b=$tmp/build
mk() { make -s -C "$top" BUILD="$b" "$@"; }

well_formed() {
	[[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION is '$v', not X.Y.Z"; return 1; }
}

header() {
	local h=$b/include/libhwtimer_version.h
	grep -qx "#define LIBHWTIMER_VERSION_MAJOR	$major" "$h" &&
		grep -qx "#define LIBHWTIMER_VERSION_MINOR	$minor" "$h" &&
		grep -qx "#define LIBHWTIMER_VERSION_PATCH	$patch" "$h" &&
		grep -qx "#define LIBHWTIMER_VERSION		\"$v\"" "$h" || { cat "$h"; return 1; }
}

# a program built against the header, run with the shared library
run_time() {
	cat > "$tmp/v.c" <<'EOC'
#include <stdio.h>
#include <libhwtimer.h>
int main(void)
{
	printf("%s %d.%d %d %d %d %d\n", LIBHWTIMER_VERSION, hwtimer_major_version(),
	       hwtimer_minor_version(), hwtimer_version_at_least(LIBHWTIMER_VERSION_MAJOR,
	       LIBHWTIMER_VERSION_MINOR), hwtimer_version_at_least(LIBHWTIMER_VERSION_MAJOR,
	       LIBHWTIMER_VERSION_MINOR + 1), hwtimer_version_at_least(0, 99),
	       LIBHWTIMER_VERSION_AT_LEAST(LIBHWTIMER_VERSION_MAJOR + 1, 0));
	return 0;
}
EOC
	local out
	gcc -Wall -Werror -I"$top/uapi" -I"$top/userspace-tool/lib" -I"$b/include" "$tmp/v.c" \
		-L"$b/lib" -lhwtimer -o "$tmp/v" || return 1
	out=$(LD_LIBRARY_PATH=$b/lib "$tmp/v") || return 1
	echo "$out"
	[ "$out" = "$v $major.$minor 1 0 1 0" ] && [ -f "$b/lib/libhwtimer.so.$v" ]
}

pc() { grep -qx "Version: $v" "$b/lib/hwtimer.pc"; }

cli() {
	local out
	out=$("$b/bin/hwtimerctl" --version) || return 1
	echo "$out"
	[[ $out == *" $v"* ]]
}

dkms_conf() {
	mk "$b/dkms.conf" && grep -qx "PACKAGE_VERSION=\"$v\"" "$b/dkms.conf"
}

man_pages() {
	local p rc=0
	for p in "$b"/man/*; do
		grep -q '^\.so ' "$p" && continue
		grep -Eq "^\.TH [^ ]+ [0-9] \"[0-9-]+\" \"(lib)?hwtimer $v\"" "$p" ||
			{ echo "$p: $(grep '^\.TH' "$p")"; rc=1; }
	done
	return $rc
}

changelog() {
	local d
	d=$(cd "$top" && dpkg-parsechangelog -S Version) || return 1
	echo "debian/changelog: $d"
	[ "${d%-*}" = "$v" ]
}

news() { grep -m1 '^hwtimer [0-9]' "$top/NEWS" | grep -q "^hwtimer $v "; }

# The symbols file, as it would be written from the map.
symbols() {
	diff <(awk '/^LIBHWTIMER_[0-9.]* *{/ { v = $1; sub(/^LIBHWTIMER_/, "", v)
			print " LIBHWTIMER_" v "@LIBHWTIMER_" v " " v ".0" }
		/^[ \t]*hwtimer_[a-z0-9_]*;/ { s = $1; sub(/;/, "", s)
			print " " s "@LIBHWTIMER_" v " " v ".0" }' "$top/userspace-tool/lib/libhwtimer.map" |
		LC_ALL=C sort) \
		<(grep '^ ' "$top/debian/libhwtimer1.symbols" | LC_ALL=C sort) || return 1
	# no function is newer than the release
	awk '{ print $2 }' "$top/debian/libhwtimer1.symbols" | grep '^[0-9]' |
		while read -r r; do dpkg --compare-versions "$r" le "$v" || { echo "$r > $v"; exit 1; }; done
}

# Nothing else names the release by hand: the next one would miss it.
no_other_spots() {
	local hits
	[ -d "$top/.git" ] || [ -f "$top/.git" ] || return 0
	hits=$(cd "$top" && git grep -nwF "$v" -- ':!VERSION' ':!NEWS' ':!debian/changelog' \
		':!debian/*.symbols'; git grep -nEi '(lib)?hwtimer[-/ ][0-9]+\.[0-9]+\.[0-9]+' -- \
		':!NEWS' ':!debian/changelog')
	[ -z "$hits" ] || { echo "$hits"; return 1; }
}

# make dist: named after VERSION, the same inside, no .git, every tracked
# file of HEAD
dist() {
	local t=$tmp/hwtimer-$v.tar.xz
	[ -d "$top/.git" ] || [ -f "$top/.git" ] || { echo "not a git tree"; return 0; }
	mk dist DISTDIR="$tmp" >/dev/null || return 1
	tar -xJf "$t" -C "$tmp" || return 1
	[ "$(cat "$tmp/hwtimer-$v/VERSION")" = "$v" ] || { echo "the tarball's VERSION differs (commit it)"; return 1; }
	[ ! -e "$tmp/hwtimer-$v/.git" ] &&
		diff <(cd "$top" && git ls-tree -r --name-only HEAD | sort) \
			<(cd "$tmp/hwtimer-$v" && find . -type f -o -type l | sed 's|^\./||' | sort)
}

echo "TAP version 13"
echo "1..13"
t "VERSION is X.Y.Z ($v)" well_formed
t "the library, CLI, pkg-config file and man pages build" mk lib cli man
t "libhwtimer_version.h: LIBHWTIMER_VERSION_MAJOR/MINOR/PATCH and LIBHWTIMER_VERSION" header
t "libhwtimer.so.$v; hwtimer_major/minor_version() and hwtimer_version_at_least() at run time" run_time
t "hwtimer.pc says Version: $v" pc
t "hwtimerctl --version says $v" cli
t "dkms.conf says PACKAGE_VERSION=\"$v\"" dkms_conf
t "every man page's .TH line says $v" man_pages
t "NEWS opens with $v" news
t "debian/changelog's top entry is $v" changelog
t "debian/libhwtimer1.symbols is libhwtimer.map's, each function at its node's release" symbols
t "no other file names the release by hand" no_other_spots
t "make dist: hwtimer-$v.tar.xz holds HEAD's files under hwtimer-$v/, no .git" dist
exit $fail
