#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every file of the tree names its license in an SPDX-License-Identifier
# line, as the kernel's do: on its first line, or its second after a "#!"
# line. Each license and exception the line names must have its text in
# LICENSES/ (Valid-License-Identifier, SPDX-Exception-Identifier). Prints
# the files that break the rule; exits 1 if there are any. Run by make style.
#
# The files that cannot carry a comment are listed below, each with why
# and what license covers it.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

exempt() {
	case $1 in
	# the license texts, and the statement of which applies where
	LICENSES/* | COPYING) return 0 ;;
	# the fuzzer's seed corpus: raw inputs (GPL-2.0, as tests/fuzz/)
	tests/fuzz/corpus/*) return 0 ;;
	# generated figures, rewritten by make bench (GPL-2.0, as bench/)
	*.svg) return 0 ;;
	# the kernel's ABI format has no comment (GPL-2.0, as the module)
	Documentation/ABI/*) return 0 ;;
	# one line that the Makefile and Kbuild read as it is
	VERSION) return 0 ;;
	# formats without comments: dpkg's changelog and source format, and
	# DEP-5's copyright file, which is itself the license statement
	debian/changelog | debian/source/format | debian/copyright) return 0 ;;
	esac
	# a man page that only includes another: mandb and dh_installman
	# recognise such a link by its first line (the page it names has the id)
	case $1 in *.[0-9]) [ "$(grep -cv '^\.so ' "$1")" -eq 0 ] && return 0 ;; esac
	return 1
}

# the identifiers LICENSES/ has texts for
mapfile -t known < <(sed -n 's/^\(Valid-License-Identifier\|SPDX-Exception-Identifier\): *//p' \
	LICENSES/*/* 2>/dev/null)
is_known() {
	local k
	for k in "${known[@]}"; do [ "$k" = "$1" ] && return 0; done
	return 1
}

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files -co --exclude-standard)
else	# a release tarball: no git
	mapfile -t files < <(find . -type f -not -path './build/*' -not -path './.vm/*' | sed 's|^\./||' | sort)
fi

rc=0
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	exempt "$f" && continue
	line=$(head -n 2 "$f" | grep -av '^#!' | head -n 1)
	expr=$(sed -n 's/.*SPDX-License-Identifier: *\(.*\)/\1/p' <<<"$line" |
		sed 's/ *\*\/ *$//; s/ *--> *$//')
	if [ -z "$expr" ]; then
		echo "$f: no SPDX-License-Identifier on its first line (second after #!)"
		rc=1
		continue
	fi
	for id in $(tr '()' '  ' <<<"$expr"); do
		case $id in OR | AND | WITH) continue ;; esac
		is_known "$id" || { echo "$f: $id has no text in LICENSES/"; rc=1; }
	done
done
exit $rc
