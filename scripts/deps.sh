#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs from Debian's registry. Idempotent: when
# everything is present it only asks dpkg, which takes well under a second.
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
	# the VM
	qemu-system-x86 busybox-static
	# the compatibility matrix: stock kernels with their headers
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64
	# host-side fuzzing of the wheel core
	clang libclang-rt-dev
	# checking the man pages
	groff-base
	# make deb (debian/), and the chroot its packages are tested in
	debhelper dh-dkms debootstrap
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root or install them"
mkdir -p "$HWT_CACHE"
log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The guests boot the stock kernels with the project's own initramfs
# (tests/vm/initramfs.sh): skip the three images' own, which took 14 of a
# fresh machine's 15 minutes of installing. Debian's initramfs-tools kernel
# hook honours INITRD=No (/etc/kernel/postinst.d/initramfs-tools).
export INITRD=No
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >"$HWT_CACHE/apt.log" 2>&1 ||
	{ tail -n 30 "$HWT_CACHE/apt.log" >&2; die "apt-get install failed"; }
