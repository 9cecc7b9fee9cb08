#!/usr/bin/env python3
# Rewrites a little-endian binary MSH 4.1 file (gmsh -bin, data-size 8)
# in big-endian byte order, as Gmsh writes it on a big-endian machine:
# quads-msh41-be.msh = to-big-endian.py quads-msh41-bin.msh.  Text lines
# ($PhysicalNames and the section names) are kept.
import struct, sys

data = open(sys.argv[1], 'rb').read()
out, at = bytearray(), 0

def line():
    global at
    end = data.index(b'\n', at) + 1
    out.extend(data[at:end]); s = data[at:end]; at = end
    return s.strip()

def num(fmt, n=1):
    global at
    vals = struct.unpack_from('<%d%s' % (n, fmt), data, at)
    at += struct.calcsize('<%d%s' % (n, fmt))
    out.extend(struct.pack('>%d%s' % (n, fmt), *vals))
    return vals

line(); line(); num('i'); line(); line()      # format, the int 1, $EndMeshFormat
while at < len(data):
    sec = line()
    if sec == b'$Entities':
        counts = num('Q', 4)
        for d in range(4):
            for _ in range(counts[d]):
                num('i'); num('d', 3 if d == 0 else 6)
                num('i', num('Q')[0])
                if d > 0:
                    num('i', num('Q')[0])
    elif sec == b'$Nodes':
        blocks = num('Q', 4)[0]
        for _ in range(blocks):
            num('i', 3); n = num('Q')[0]
            num('Q', n); num('d', 3 * n)
    elif sec == b'$Elements':
        blocks = num('Q', 4)[0]
        for _ in range(blocks):
            _, _, t = num('i', 3); n = num('Q')[0]
            num('Q', n * (1 + {1: 2, 2: 3, 3: 4, 15: 1}[t]))
    else:
        while not sec.startswith(b'$End'):
            sec = line()
        continue
    line(); line()                           # the newline, $End...
sys.stdout.buffer.write(out)
