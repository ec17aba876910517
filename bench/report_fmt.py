# SPDX-License-Identifier: GPL-2.0
"""How bench/report.py and its parts write a figure."""


def fmt_ns(v):
    if v is None:
        return 'n/a'
    if v >= 1e6:
        return f'{v / 1e6:.2f} ms'
    if v >= 1e3:
        return f'{v / 1e3:.2f} us'
    return f'{v:.1f} ns'


def ratio(a, b):
    if not a or not b:
        return 'n/a'
    return f'{a / b:.2f}x'
