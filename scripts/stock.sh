#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's stock kernels for the guests without installing them: for
# each kernel of HWT_STOCK_KERNELS, apt-get download its image, its headers
# and the packages the headers need (the -common headers, linux-kbuild), and
# unpack them with dpkg-deb into $HWT_CACHE/stock/RELEASE. Nothing goes into
# /boot or /lib/modules, no kernel hook runs, and dpkg does not learn of
# them: a machine that boots its own kernel keeps booting it. The guests
# boot RELEASE/boot/vmlinuz-RELEASE (hwt_stock_image) and modules build
# against RELEASE/usr/src/linux-headers-RELEASE (hwt_stock_headers).
#
# Idempotent: a kernel already unpacked is not fetched again.
#
# usage: stock.sh [LABEL...]   (default: every kernel of HWT_STOCK_KERNELS)
set -euo pipefail
. "$(dirname "$0")/common.sh"

# The packages a stock kernel's guests need, by exact name: the image,
# whose boot/ alone is unpacked, then the headers and what they depend on.
stock_pkgs() {
	local rel=$1 hdr
	echo "linux-image-$rel"
	echo "linux-headers-$rel"
	apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "linux-headers-$rel" |
		sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p'
}

fetch() {
	local rel=$1 dir=$HWT_CACHE/stock/$1 tmp deb hdr
	[ -f "$dir/.done" ] && return 0
	log "fetching Debian's $rel kernel and headers into $dir (not installed)"
	tmp=$(mktemp -d "$HWT_CACHE/stock/.fetch.XXXXXX")
	# apt's download sandbox user may not write into a root-owned temp dir
	chmod 755 "$tmp"
	mapfile -t pkgs < <(stock_pkgs "$rel")
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "${pkgs[@]}") >"$tmp/apt.log" 2>&1 ||
		{ tail -n 20 "$tmp/apt.log" >&2; rm -rf "$tmp"; die "cannot download ${pkgs[*]}"; }
	mkdir -p "$tmp/root"
	for deb in "$tmp"/*.deb; do
		case ${deb##*/} in
		linux-image-*)
			# the image and System.map, not the 400 MB of modules
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/root" ./boot
			;;
		*)
			dpkg-deb -x "$deb" "$tmp/root"
			;;
		esac
	done
	# Debian's headers include their -common half by its installed path
	hdr=$tmp/root/usr/src/linux-headers-$rel
	sed -i "s|^include /usr/src/|include $dir/usr/src/|" "$hdr/Makefile"
	[ -f "$tmp/root/boot/vmlinuz-$rel" ] && [ -f "$hdr/.config" ] && [ -f "$hdr/Module.symvers" ] ||
		{ rm -rf "$tmp"; die "the packages of $rel did not hold a vmlinuz and a headers tree"; }
	dpkg-deb -f "$tmp/linux-headers-${rel}_"*.deb Version > "$tmp/root/.version"
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
	rm -rf "$tmp"
	touch "$dir/.done"
}

mkdir -p "$HWT_CACHE/stock"
for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label meta _ <<<"$entry"
	[ $# -eq 0 ] || [[ " $* " == *" $label "* ]] || continue
	fetch "$(hwt_stock_release "$meta")"
done
# kernels of earlier ABIs are dropped
for d in "$HWT_CACHE"/stock/*/; do
	rel=$(basename "$d")
	keep=
	for entry in "${HWT_STOCK_KERNELS[@]}"; do
		read -r _ meta _ <<<"$entry"
		[ "$(hwt_stock_release "$meta")" = "$rel" ] && keep=1
	done
	[ -n "$keep" ] || rm -rf "$d"
done
