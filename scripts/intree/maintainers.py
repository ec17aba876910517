#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""maintainers.py MAINTAINERS AUTHOR PATH...: hwtimer's entry in a kernel
tree's MAINTAINERS, made in its alphabetical place by the first call, lists
each PATH too (sorted), so that each patch of the series names the files it
adds (scripts/create-patch.sh)."""
import sys

path, author, files = sys.argv[1], sys.argv[2], sys.argv[3:]
TITLE = 'HWTIMER HASHED TIMING WHEEL'
lines = open(path).read().split('\n')
if TITLE in lines:
    at = lines.index(TITLE) + 1
else:
    # entries follow "Maintainers List", each titled by a capitalised
    # line after a blank one; a few are out of order, so the entry goes
    # after the greatest title below its own
    start = lines.index('Maintainers List') + 1
    titles = [i for i in range(start, len(lines))
              if lines[i] and not lines[i - 1] and lines[i][0].isupper()
              and lines[i][1] != ':']
    prev = max((i for i in titles if lines[i] < TITLE), key=lambda i: lines[i])
    at = lines.index('', prev) + 1
    lines[at:at] = [TITLE, 'M:\t' + author, 'L:\tlinux-kernel@vger.kernel.org',
                    'S:\tMaintained', '']
    at += 1
end = lines.index('', at)
head = [l for l in lines[at:end] if not l.startswith('F:')]
fs = {l for l in lines[at:end] if l.startswith('F:')} | {'F:\t' + f for f in files}
lines[at:end] = head + sorted(fs)
with open(path, 'w') as f:
    f.write('\n'.join(lines))
