#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages as a user gets them, as TAP: make deb builds them,
# source package included, and lintian finds nothing to say; they install,
# with apt, in a Debian 12 chroot that has the stock kernels' headers,
# where DKMS builds the module for each of those kernels; a program builds
# there against libhwtimer-dev with pkg-config, and DKMS builds the example
# driver against hwtimer's Module.symvers and headers; they purge clean;
# make dkms-install and dkms-uninstall work there too. For each kernel,
# OUT/REL.initrd.gz is then an initramfs for a stock guest in
# tests/vm/init.sh's "user" mode with the module DKMS built for it, the
# example driver, the packaged hwtimerctl and that program, dynamically
# linked, with their shared libraries, and tests/pkg/pkg_test.sh, which
# runs them (check.sh boots them).
#
# The chroot comes from debootstrap, once, and is kept in the cache, keyed
# by the kernels' header versions (about 800 MB); each run works on an
# overlay of it, so that nothing of one run stays for the next and the
# machine itself is not touched. --prepare only makes the chroot: check.sh
# has it made in the background while the kernels build. HWT_DEBIAN_MIRROR
# names another mirror than deb.debian.org.
#
# usage: pkg_check.sh OUT REL...  (REL: the kernels, e.g. 6.1.0-56-amd64)
#        pkg_check.sh --prepare REL...
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

out=$1
shift
rels=("$@")
version=$(cat "$HWT_TOP/VERSION")
mirror=${HWT_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# what the chroot has besides minbase: what the packages depend on, so that
# installing them needs no download, and what a user builds with
base_pkgs=(dkms adduser liburing2 libc6-dev pkg-config)
hdr_pkgs=()
for r in "${rels[@]}"; do
	hdr_pkgs+=("linux-headers-$r=$(hwt_stock_version "$r")")
done
key=$(echo "bookworm minbase-status ${base_pkgs[*]} ${hdr_pkgs[*]}" | sha256sum | cut -c1-16)
base=$HWT_CACHE/pkgroot-$key

in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	DEBIAN_FRONTEND=noninteractive "$@"; }

# The chroot, once: minbase, Debian's three suites, the packages above.
make_base() {
	local new=$base.new d
	[ -f "$base/.done" ] && return 0
	umount "$new/proc" 2>/dev/null
	rm -rf "$new"
	debootstrap --variant=minbase bookworm "$new" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$tmp/debootstrap.log"; return 1; }
	printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s-security bookworm-security main\n' \
		"$mirror" "$mirror" "$mirror" > "$new/etc/apt/sources.list"
	cp /etc/resolv.conf "$new/etc/resolv.conf"
	# what a fresh Debian 12 has installed, for host_untouched()
	cp "$new/var/lib/dpkg/status" "$new/var/lib/dpkg/status.minbase"
	# no service starts in a chroot
	printf '#!/bin/sh\nexit 101\n' > "$new/usr/sbin/policy-rc.d"
	chmod +x "$new/usr/sbin/policy-rc.d"
	mount -t proc proc "$new/proc" || return 1
	# INITRD=No: the 6.12 headers pull in its image, whose initramfs no one boots
	chroot "$new" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive INITRD=No \
		sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends \
			${base_pkgs[*]} ${hdr_pkgs[*]} && apt-get clean" >"$tmp/apt.log" 2>&1
	local rc=$?
	umount "$new/proc"
	[ $rc -eq 0 ] || { tail -n 20 "$tmp/apt.log"; return 1; }
	touch "$new/.done"
	# one chroot at a time in the cache: drop those of other kernels
	for d in "$HWT_CACHE"/pkgroot-*; do
		[ "$d" = "$new" ] || rm -rf "$d"
	done
	mv "$new" "$base"
}

# one process makes the chroot; another waits for it
with_base() {
	mkdir -p "$HWT_CACHE"
	(flock 9 && make_base) 9>"$HWT_CACHE/pkgroot.lock"
}

if [ "$out" = --prepare ]; then
	tmp=$(mktemp -d)
	with_base
	rc=$?
	rm -rf "$tmp"
	exit $rc
fi

tmp=$out/tmp
root=$tmp/root
# what a run that was killed left mounted
grep -o " $out/tmp/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l
rm -rf "$out"
mkdir -p "$tmp"
. "$HWT_TOP/tests/host/tap.sh"

mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

overlay() {
	mkdir -p "$tmp/upper" "$tmp/work" "$root" &&
		mount -t overlay overlay -o "lowerdir=$base,upperdir=$tmp/upper,workdir=$tmp/work" "$root" &&
		mounted+=("$root") &&
		mount -t proc proc "$root/proc" && mounted+=("$root/proc")
}

debs=()
build_debs() {
	make -s -C "$HWT_TOP" deb BUILD="$out/build" >"$tmp/deb.log" 2>&1 ||
		{ tail -n 30 "$tmp/deb.log"; return 1; }
	local p
	for p in hwtimer-dkms libhwtimer1 libhwtimer-dev hwtimerctl; do
		debs+=("$(ls "$out/build/deb/${p}_${version}_"*.deb)") || return 1
	done
	ls -l "${debs[@]}"
}

# lintian, as the archive runs it, on the source package and the binary
# ones (the .changes names them all): no error or warning, pedantic and
# experimental tags included; the debian/*lintian-overrides files say why
# each tag they hide does not apply
linted() {
	local changes
	changes=$(ls "$out/build/deb/hwtimer_${version}_"*.changes) || return 1
	echo "lintian $(lintian --print-version)"
	lintian --pedantic -E -I --show-overrides --tag-display-limit 0 --fail-on error,warning "$changes"
}

install_debs() {
	mkdir -p "$root/tmp/debs" && cp "${debs[@]}" "$root/tmp/debs/" &&
		in_root sh -c 'apt-get install -y -q --no-install-recommends /tmp/debs/*.deb'
}

# DKMS built and installed the module for each kernel, with the release
dkms_built() {
	local r ko
	in_root dkms status
	for r in "${rels[@]}"; do
		ko=$(ls "$root/lib/modules/$r/updates/dkms/"hwtimer.ko* 2>/dev/null) ||
			{ echo "no hwtimer.ko for $r"; return 1; }
		[ "$(modinfo -F version "$ko")" = "$version" ] &&
			modinfo -F vermagic "$ko" | grep -q "^$r " ||
			{ modinfo "$ko"; return 1; }
	done
}

# the layout: headers under /usr/include/hwtimer, none in linux-libc-dev's
# folder; loaded at boot; no udev rule or group (the module's 0666 stands),
# the rule that restricts the device an example for /etc
laid_out() {
	local f
	for f in /usr/include/hwtimer/libhwtimer.h /usr/include/hwtimer/libhwtimer_version.h \
		/usr/include/hwtimer/linux/hwtimer.h /usr/lib/modules-load.d/hwtimer.conf \
		/usr/share/doc/hwtimer-dkms/examples/60-hwtimer.rules /usr/share/man/man4/hwtimer.4.gz \
		/usr/share/doc/hwtimer-dkms/README.Debian.gz /usr/bin/hwtimerctl; do
		[ -e "$root$f" ] || { echo "missing $f"; return 1; }
	done
	[ ! -e "$root/usr/include/linux/hwtimer.h" ] && grep -qx hwtimer "$root/usr/lib/modules-load.d/hwtimer.conf" &&
		! ls "$root"/lib/udev/rules.d/*hwtimer* "$root"/usr/lib/udev/rules.d/*hwtimer* 2>/dev/null &&
		! in_root getent group hwtimer && [ "$(in_root pkg-config --modversion hwtimer)" = "$version" ]
}

prog_built() {
	cp "$HWT_TOP/tests/pkg/prog.c" "$root/tmp/prog.c" &&
		in_root sh -c 'cc -Wall -Werror -o /tmp/hwtimer_prog /tmp/prog.c $(pkg-config --cflags --libs hwtimer)' &&
		in_root ldd /tmp/hwtimer_prog | tee "$tmp/ldd" && grep -q 'libhwtimer.so.1 => /' "$tmp/ldd"
}

# a .ko as it is, whether DKMS compressed it or not
unpack_ko() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac > "$2"
}

# hwtimer's example driver, packaged as a driver of its own would be
# (tests/pkg/example/): DKMS builds it after hwtimer with the headers and
# Module.symvers hwtimer-dkms keeps for each kernel, as README.Debian says.
# It depends on hwtimer, and its CRC of every hwtimer_* symbol it uses is
# the one hwtimer's build exported. The modules go to the guests (OUT/example/).
example_built() {
	local d=/usr/src/hwtimer-example-1.0 r ko sv
	mkdir -p "$root$d" &&
		cp "$HWT_TOP/kmod/example/hwtimer_example.c" "$HWT_TOP"/tests/pkg/example/* "$root$d/" &&
		in_root dkms add -m hwtimer-example -v 1.0 || return 1
	for r in "${rels[@]}"; do
		in_root dkms install -m hwtimer-example -v 1.0 -k "$r" || return 1
		sv=$root/var/lib/dkms/hwtimer/kernel-$r-x86_64/module/Module.symvers
		ls -l "$sv" "$root/var/lib/dkms/hwtimer/kernel-$r-x86_64/include/linux/" || return 1
		ko=$(ls "$root/lib/modules/$r/updates/dkms/"hwtimer_example.ko*) || return 1
		mkdir -p "$out/example/$r" && unpack_ko "$ko" "$out/example/$r/hwtimer_example.ko" || return 1
		ko=$out/example/$r/hwtimer_example.ko
		[ "$(modinfo -F depends "$ko")" = hwtimer ] || { modinfo "$ko"; return 1; }
		modprobe --dump-modversions "$ko" | grep -P '\t_*hwtimer_' > "$tmp/crcs" &&
			awk '{ print $1 "\t" $2 }' "$sv" | grep -P '\t_*hwtimer_' | sort -k2 > "$tmp/exported" &&
			sort -k2 "$tmp/crcs" | join -1 2 -2 2 -a 1 - "$tmp/exported" | tee "$tmp/joined" |
			awk 'NF != 3 || $2 != $3 { bad = 1 } END { exit bad || NR < 5 }' ||
			{ cat "$tmp/joined"; return 1; }
		echo "$r: $(wc -l < "$tmp/joined") hwtimer symbols, CRCs as exported"
	done
	in_root dkms remove -m hwtimer-example -v 1.0 --all && rm -rf "${root:?}$d"
}

# What the guests get: the module, the two programs and their libraries.
guest_files() {
	local g=$out/guest r f
	mkdir -p "$g/bin" "$g/tests" "$g/root" || return 1
	cp "$root/usr/bin/hwtimerctl" "$root/tmp/hwtimer_prog" "$g/bin/" || return 1
	sed "s/@VERSION@/$version/g" "$HWT_TOP/tests/pkg/pkg_test.sh" > "$g/tests/pkg_test" &&
		chmod +x "$g/tests/pkg_test" || return 1
	# each library as the loader finds it, and the loader itself
	in_root ldd /usr/bin/hwtimerctl /tmp/hwtimer_prog |
		sed -n 's|.*=> \(/[^ ]*\) .*|\1|p; s|^[[:space:]]*\(/[^ ]*\) (0x.*|\1|p' | sort -u > "$tmp/libs"
	grep -q libhwtimer.so.1 "$tmp/libs" || { cat "$tmp/libs"; return 1; }
	while read -r f; do
		mkdir -p "$g/root${f%/*}" && cp -L "$root$f" "$g/root$f" || return 1
	done < "$tmp/libs"
	for r in "${rels[@]}"; do
		mkdir -p "$g/$r" || return 1
		f=$(ls "$root/lib/modules/$r/updates/dkms/"hwtimer.ko*) && unpack_ko "$f" "$g/$r/hwtimer.ko" ||
			return 1
		# the example driver, if it built (pkg_test.sh loads it)
		cp "$out/example/$r/hwtimer_example.ko" "$g/$r/" 2>/dev/null
		"$HWT_TOP/tests/vm/initramfs.sh" "$out/$r.initrd.gz" "$g/$r" tests="$g/tests" \
			bin="$g/bin" root="$g/root" || return 1
	done
}

# purging leaves no module, sources, DKMS state or files of the packages
purged() {
	in_root apt-get purge -y -q hwtimer-dkms hwtimerctl libhwtimer-dev libhwtimer1 || return 1
	local left
	left=$(cd "$root" && ls -d usr/src/hwtimer-* var/lib/dkms/hwtimer lib/modules/*/updates/dkms/hwtimer.ko* \
		usr/include/hwtimer usr/bin/hwtimerctl usr/lib/x86_64-linux-gnu/libhwtimer* 2>/dev/null)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
}

# make dkms-install and dkms-uninstall, from a release tarball, for one
# kernel (the chroot runs none of its own)
dkms_install() {
	local r=${rels[0]}
	mkdir -p "$root/tmp/src" &&
		(cd "$HWT_TOP" && git ls-files -co --exclude-standard | grep -v '^tests/fuzz/corpus/' |
			xargs -d '\n' cp --parents -t "$root/tmp/src") &&
		in_root make -s -C /tmp/src dkms-install DKMS_KERNELS="$r" BUILD=/tmp/build || return 1
	[ "$(modinfo -F version "$root/lib/modules/$r/updates/dkms/"hwtimer.ko*)" = "$version" ] &&
		[ ! -e "$root/usr/src/hwtimer-$version/tests" ] || return 1
	in_root make -s -C /tmp/src dkms-uninstall BUILD=/tmp/build &&
		! ls "$root/lib/modules/$r/updates/dkms/"hwtimer.ko* 2>/dev/null &&
		[ ! -e "$root/usr/src/hwtimer-$version" ]
}

# What the README's commands do to a machine: apt installs build tools
# only, on a fresh Debian 12 (the minbase's own dpkg status, simulated),
# and the stock kernels are fetched into the cache, not installed: /boot,
# /lib/modules and dpkg's package set stay as they were.
host_untouched() {
	local pkgs
	mkdir -p "$root/tmp/hs" && cp -r "$HWT_TOP/scripts" "$root/tmp/hs/" || return 1
	in_root env HWT_APT_SIMULATE=1 bash /tmp/hs/scripts/deps.sh \
		-o Dir::State::status=/var/lib/dpkg/status.minbase > "$tmp/sim" || return 1
	pkgs=$(sed -n 's/^Inst \([^ ]*\) .*/\1/p' "$tmp/sim")
	echo "a fresh Debian 12 gets $(wc -w <<<"$pkgs") packages"
	[ -n "$pkgs" ] || { cat "$tmp/sim"; return 1; }
	if grep -E '^(linux-image-|grub|initramfs-tools|dracut|tiny-initramfs|systemd-boot)' <<<"$pkgs"; then
		echo "^ a kernel or boot package among them"
		return 1
	fi
	snapshot() { (cd "$root" && ls -laR --time-style=full-iso boot lib/modules 2>&1 && chroot . dpkg-query -W); }
	snapshot > "$tmp/before" &&
		in_root env HWT_CACHE=/tmp/hs/cache bash /tmp/hs/scripts/stock.sh 6.12 &&
		ls "$root"/tmp/hs/cache/stock/*/boot/vmlinuz-* "$root"/tmp/hs/cache/stock/*/usr/src/linux-headers-*/Makefile &&
		snapshot > "$tmp/after" && diff "$tmp/before" "$tmp/after"
}

echo "TAP version 13"
echo "1..12"
t "make deb builds the source package, hwtimer-dkms, libhwtimer1, libhwtimer-dev and hwtimerctl" build_debs
t "lintian --pedantic -E: no error or warning on the source and binary packages" linted
t "a Debian 12 chroot with the headers of ${rels[*]} (cached after the first run)" with_base
if ! overlay; then
	echo "Bail out! cannot mount an overlay of $base"
	exit 1
fi
t "apt installs the four packages in it" install_debs
t "DKMS built hwtimer.ko $version for ${rels[*]}" dkms_built
t "headers in /usr/include/hwtimer, pkg-config, modules-load.d, README.Debian; no udev rule or group" laid_out
t "a program builds with pkg-config --cflags --libs hwtimer, linked to libhwtimer.so.1" prog_built
t "DKMS builds the example driver against hwtimer's Module.symvers and headers for ${rels[*]}" \
	example_built
t "the guests' initramfs: each kernel's module, dynamic hwtimerctl and program, libraries" guest_files
t "apt purge removes the module, its sources and DKMS state, and every file" purged
t "make dkms-install and dkms-uninstall for ${rels[0]}" dkms_install
t "make vm's and make check's set-up on a fresh Debian 12: build tools only; kernels fetched, not installed" \
	host_untouched
exit $fail
