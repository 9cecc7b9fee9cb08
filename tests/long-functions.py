#!/usr/bin/env python3
# Lists C functions longer than 80 lines under src/ (the house style's limit;
# a rough brace matcher: a function starts at a "{" in column 0). Run from
# the repository root: python3 tests/long-functions.py
import re, sys, glob
for f in sorted(glob.glob('src/**/*.c', recursive=True)):
    lines = open(f, errors='replace').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].startswith('{') and i > 0:
            # name: search upward for identifier followed by (
            j = i - 1
            while j > 0 and '(' not in lines[j]:
                j -= 1
            m = re.match(r'^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(', lines[j])
            name = m.group(1) if m else lines[j][:40]
            k = i
            while k < len(lines) and not lines[k].startswith('}'):
                k += 1
            if k - i + 1 > 80:
                print(f"{k - i + 1:4d} {f}:{i+1} {name}")
            i = k
        i += 1
