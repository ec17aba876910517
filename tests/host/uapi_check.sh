#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Header hygiene of uapi/linux/hwtimer.h, as TAP: it compiles on its own as
# C99 and C++ with -pedantic, its structs have no implicit padding, its
# ioctl type byte is free in the kernel's ioctl-number.rst, kernel-doc
# documents every field (and every exported function of the module), and
# the man pages, which document it for users, are well-formed and name
# every flag, state and feature bit it defines.
#
# usage: uapi_check.sh KERNEL_SOURCE_TREE
set -uo pipefail
src=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
hdr=$top/uapi/linux/hwtimer.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

printf '#include <linux/hwtimer.h>\nint main(void) { return HWTIMER_IOC_ADD != 0; }\n' > "$tmp/c.c"
cp "$tmp/c.c" "$tmp/cxx.cc"
cat > "$tmp/layout.c" <<'EOC'
#include <linux/hwtimer.h>
#define CHECK(s) _Static_assert(sizeof(struct s) % 8 == 0, #s " is not a multiple of 8 bytes")
CHECK(hwtimer_info); CHECK(hwtimer_op); CHECK(hwtimer_get); CHECK(hwtimer_batch);
CHECK(hwtimer_drain); CHECK(hwtimer_eventfd); CHECK(hwtimer_slack); CHECK(hwtimer_record);
EOC
# the 64-bit sizes, asserted again in a 32-bit build: no compat translation
cat > "$tmp/sizes.c" <<'EOC'
#include <stdio.h>
#include <linux/hwtimer.h>
#define P(s) printf("_Static_assert(sizeof(struct " #s ") == %zu, \"" #s " differs on i386\");\n", sizeof(struct s))
int main(void)
{
	printf("#include <linux/hwtimer.h>\n");
	P(hwtimer_info); P(hwtimer_op); P(hwtimer_get); P(hwtimer_batch);
	P(hwtimer_drain); P(hwtimer_eventfd); P(hwtimer_slack); P(hwtimer_record);
	return 0;
}
EOC
gcc -I"$top/uapi" "$tmp/sizes.c" -o "$tmp/sizes" && "$tmp/sizes" > "$tmp/sizes32.c"

echo "TAP version 13"
echo "1..10"
t "uapi header compiles alone as C99 -pedantic" \
	gcc -std=c99 -Wall -Wextra -Werror -pedantic -I"$top/uapi" -c "$tmp/c.c" -o "$tmp/c.o"
t "uapi header compiles alone as C++ -pedantic" \
	g++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$top/uapi" -c "$tmp/cxx.cc" -o "$tmp/cxx.o"
t "uapi structs have no implicit padding (-Wpadded)" \
	gcc -std=c11 -Wpadded -Werror -I"$top/uapi" -c "$tmp/layout.c" -o "$tmp/l.o"
# asm/ioctl.h and asm/types.h are the same asm-generic ones for i386
t "uapi structs have the same size on i386 (-m32)" \
	gcc -m32 -std=c11 -Wpadded -Werror -I"$top/uapi" -I/usr/include/x86_64-linux-gnu \
		-c "$tmp/sizes32.c" -o "$tmp/l32.o"
magic=$(sed -n 's/^#define HWTIMER_IOC_MAGIC[[:space:]]*\(0x[0-9A-Fa-f]*\).*/\1/p' "$hdr")
t "ioctl type byte $magic is free in ioctl-number.rst" \
	sh -c "[ -n '$magic' ] && ! grep -qi '^$magic[[:space:]]' '$src/Documentation/userspace-api/ioctl/ioctl-number.rst'"
t "kernel-doc: every uapi struct field is documented" \
	sh -c "perl '$src/scripts/kernel-doc' -none -Wall '$hdr' 2>&1 | tee /dev/stderr | { ! grep -q .; }"
t "kernel-doc: the comments in kmod/ are complete and well-formed" \
	sh -c "cd '$top' && perl '$src/scripts/kernel-doc' -none -Wall kmod/*.c kmod/*.h kmod/include/linux/*.h 2>&1 | tee /dev/stderr | { ! grep -q .; }"

# kernel-doc only checks the comments there are: every exported symbol
# must have one of its own
exported_documented() {
	local f sym rc=0
	for f in "$top"/kmod/*.c; do
		for sym in $(sed -n 's/^EXPORT_SYMBOL_GPL(\(.*\));/\1/p' "$f"); do
			grep -q "^ \* $sym() - " "$f" || { echo "$f: $sym has no kernel-doc"; rc=1; }
		done
	done
	return $rc
}
t "kernel-doc: every EXPORT_SYMBOL_GPL of kmod/ has a comment of its own" exported_documented

# the pages that only include another (.so) are checked through it
man_pages_clean() {
	local f rc=0
	for f in "$top"/userspace-tool/man/*.[1347]; do
		grep -q '^\.so ' "$f" && continue
		groff -ww -man -z "$f" 2>&1 | sed "s|^|$f: |" | grep . && rc=1
		# mandoc's warnings and errors (not its style notes: a function's
		# page has a lower-case title, as the name it documents)
		mandoc -Tlint -W warning "$f" || rc=1
	done
	return $rc
}
t "man pages: groff -ww and mandoc -Tlint -W warning have nothing to say" man_pages_clean

# what a program sets or reads: flags, record flags, states, feature bits,
# the ring's flags and wake modes, batch and open flags
man_pages_complete() {
	local sym rc=0
	for sym in $(sed -n 's/^#define \(HWTIMER_\(F\|FEAT\|REC\|STATE\|RING\|BATCH\|OPEN\)_[A-Z0-9_]*\).*/\1/p' "$hdr"); do
		case $sym in *_SIZE_VER*) continue ;; esac
		grep -rqw "$sym" "$top"/userspace-tool/man/ || { echo "$sym: in no man page"; rc=1; }
	done
	return $rc
}
t "man pages: every flag, state and feature bit of the uapi is described" man_pages_complete
exit $fail
