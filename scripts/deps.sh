#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the build tools the harness needs from Debian's registry, then
# fetch the guests' stock kernels into the cache (scripts/stock.sh). No
# kernel is installed on the host: nothing here touches /boot, /lib/modules,
# the boot loader or an initramfs. Idempotent: when everything is present it
# only asks dpkg, which takes well under a second.
#
# HWT_APT_SIMULATE=1 asks apt what it would install (apt-get -s, with any
# arguments given as apt options) and installs and fetches nothing:
# tests/vm/pkg_check.sh checks the list that way.
#
# usage: deps.sh
#        HWT_APT_SIMULATE=1 deps.sh [APT-OPTION...]
set -euo pipefail
. "$(dirname "$0")/common.sh"

pkgs=(
	# building the module, the debug kernel and the userspace side
	gcc g++ make perl python3 bc flex bison libelf-dev libssl-dev dwarves
	xz-utils cpio kmod rsync sparse pkg-config dkms
	# tests/vm/uml-*.patch, applied to the UML kernel's source
	patch
	# a test built with -m32: the uapi from a 32-bit process
	gcc-multilib
	# io_uring from the tests (the library itself does not need it)
	liburing-dev
	linux-source-6.12
	# the VM (the stock kernels it boots are fetched, not installed)
	qemu-system-x86 busybox-static
	# host-side fuzzing of the wheel core
	clang libclang-rt-dev
	# checking the man pages
	groff-base mandoc
	# make deb (debian/), the chroot its packages are tested in, and
	# lintian, which checks them (tests/vm/pkg_check.sh)
	debhelper dh-dkms debootstrap lintian
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
if [ -n "${HWT_APT_SIMULATE:-}" ]; then
	apt-get "$@" install -s -q --no-install-recommends "${pkgs[@]}"
	exit
fi
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root or install them"
	mkdir -p "$HWT_CACHE"
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >"$HWT_CACHE/apt.log" 2>&1 ||
		{ tail -n 30 "$HWT_CACHE/apt.log" >&2; die "apt-get install failed"; }
fi
"$(dirname "$0")/stock.sh"
