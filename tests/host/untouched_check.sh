#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check changes the machine it runs on by build tools alone, as TAP:
# a snapshot of /boot, /lib/modules and dpkg's package set taken before
# scripts/deps.sh ran is compared with the machine after the whole run.
# The guests' kernels are unpacked into the cache (scripts/stock.sh), so
# /boot and /lib/modules stay as they were, and no kernel image, boot
# loader or initramfs generator is among the packages installed.
#
# usage: untouched_check.sh --snapshot DIR   (before scripts/deps.sh)
#        untouched_check.sh DIR              (after the run)
set -uo pipefail

boot_listing() {
	local d
	for d in /boot /lib/modules; do
		if [ -e "$d" ]; then
			# -A: not "..", whose times move with whatever the
			# packages add to / or /lib (libc6-i386's /lib32)
			ls -lAR --time-style=full-iso "$d"
		else
			echo "$d: absent"
		fi
	done
}
packages() { dpkg-query -W -f='${Package}\n' | sort; }

if [ "$1" = --snapshot ]; then
	mkdir -p "$2" && boot_listing > "$2/boot" && packages > "$2/packages"
	exit
fi
snap=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

boot_unchanged() { boot_listing | diff "$snap/boot" -; }
no_kernel_installed() {
	local new
	new=$(packages | comm -13 "$snap/packages" -)
	echo "installed by this run: $(wc -w <<<"$new") packages"
	! grep -E '^(linux-image-|grub|initramfs-tools|dracut|tiny-initramfs|systemd-boot)' <<<"$new"
}

echo "TAP version 13"
echo "1..2"
t "/boot and /lib/modules are as they were before the run" boot_unchanged
t "no kernel image, boot loader or initramfs generator was installed" no_kernel_installed
exit $fail
