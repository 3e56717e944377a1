#!/usr/bin/env python3
"""Writes the small datasets of the benchmarks and their reference outputs.

The trial had an sgemm benchmark too, left out of the test for its build
time; its datasets are still drawn here first, so that the random numbers of
the others, and so the committed files, stay the same."""
import os
import struct
import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datasets")
rng = np.random.default_rng(20261204)


def folder(bench, kind):
    p = os.path.join(root, bench, "small", kind)
    os.makedirs(p, exist_ok=True)
    return p


def write_colmajor(path, a):
    rows, cols = a.shape
    with open(path, "w") as f:
        f.write("%d %d\n" % (rows, cols))
        f.write(" ".join("%.7g" % v for v in a.T.reshape(-1)))
        f.write("\n")


# sgemm: C (m x n) = A (m x k) * B (k x n); the file holds B^T (n x k).
m, n, k = 128, 32, 16
A = rng.uniform(-1, 1, (m, k)).astype(np.float32)
BT = rng.uniform(-1, 1, (n, k)).astype(np.float32)
C = A.astype(np.float64) @ BT.astype(np.float64).T
write_colmajor(os.path.join(folder("sgemm", "input"), "matrix1.txt"), A)
write_colmajor(os.path.join(folder("sgemm", "input"), "matrix2t.txt"), BT)
write_colmajor(os.path.join(folder("sgemm", "output"), "matrix3.txt"), C)

# spmv: a Matrix Market file with rows of very different lengths.
rows, cols = 200, 180
entries = {}
for r in range(rows):
    length = int(rng.integers(0, 3)) if r % 7 else int(rng.integers(10, 40))
    for c in rng.choice(cols, size=length, replace=False):
        entries[(r, int(c))] = float(np.float32(rng.uniform(-2, 2)))
with open(os.path.join(folder("spmv", "input"), "matrix.mtx"), "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n% written by gen_datasets.py\n")
    f.write("%d %d %d\n" % (rows, cols, len(entries)))
    for (r, c), v in sorted(entries.items(), key=lambda e: (e[0][1], e[0][0])):
        f.write("%d %d %.9g\n" % (r + 1, c + 1, v))
xv = rng.uniform(0, 1, cols).astype(np.float32)
xv.tofile(os.path.join(folder("spmv", "input"), "vector.bin"))
y = np.zeros(rows)
for (r, c), v in entries.items():
    y[r] += v * float(xv[c])
with open(os.path.join(folder("spmv", "output"), "reference.txt"), "w") as f:
    f.write("%d\n" % rows)
    f.write("".join("%.9g\n" % v for v in y))

# stencil: 7-point Jacobi, boundaries fixed.
nx, ny, nz, iters = 24, 12, 8, 3
a0 = rng.uniform(0, 1, (nz, ny, nx)).astype(np.float32)
c0, c1 = np.float32(1.0 / 6.0), np.float32(1.0 / 6.0 / 6.0)
with open(os.path.join(folder("stencil", "input"), "grid.bin"), "wb") as f:
    f.write(struct.pack("<3i", nx, ny, nz))
    f.write(a0.tobytes())
cur = a0.astype(np.float64)
for _ in range(iters):
    nxt = cur.copy()
    nxt[1:-1, 1:-1, 1:-1] = (cur[:-2, 1:-1, 1:-1] + cur[2:, 1:-1, 1:-1] + cur[1:-1, :-2, 1:-1] +
                             cur[1:-1, 2:, 1:-1] + cur[1:-1, 1:-1, :-2] + cur[1:-1, 1:-1, 2:]) * float(c1) \
        - cur[1:-1, 1:-1, 1:-1] * float(c0)
    cur = nxt
with open(os.path.join(folder("stencil", "output"), "reference.bin"), "wb") as f:
    f.write(struct.pack("<3i", nx, ny, nz))
    f.write(cur.astype(np.float32).tobytes())

# mri-q: numK samples (three constant-memory chunks, the last one odd), numX voxels.
numK, numX = 1101, 256
kx, ky, kz = (rng.uniform(-0.5, 0.5, numK).astype(np.float32) for _ in range(3))
x, y_, z = (rng.uniform(-4, 4, numX).astype(np.float32) for _ in range(3))
phiR, phiI = (rng.uniform(-1, 1, numK).astype(np.float32) for _ in range(2))
with open(os.path.join(folder("mri-q", "input"), "input.bin"), "wb") as f:
    f.write(struct.pack("<2i", numK, numX))
    for arr in (kx, ky, kz, x, y_, z, phiR, phiI):
        f.write(arr.tobytes())
mag = phiR.astype(np.float64) ** 2 + phiI.astype(np.float64) ** 2
arg = 2 * np.pi * (np.outer(x, kx) + np.outer(y_, ky) + np.outer(z, kz))
Qr = (mag * np.cos(arg)).sum(axis=1)
Qi = (mag * np.sin(arg)).sum(axis=1)
with open(os.path.join(folder("mri-q", "output"), "reference.bin"), "wb") as f:
    f.write(struct.pack("<i", numX))
    f.write(Qr.astype(np.float32).tobytes())
    f.write(Qi.astype(np.float32).tobytes())

# bfs: a random graph (edges both ways, some nodes unreachable), costs by levels.
nodes = 1000
adj = [[] for _ in range(nodes)]
for a in range(nodes - 60):
    for b in rng.choice(nodes - 60, size=int(rng.integers(1, 4)), replace=False):
        if int(b) != a:
            adj[a].append(int(b))
            adj[int(b)].append(a)
src = 0
with open(os.path.join(folder("bfs", "input"), "graph.txt"), "w") as f:
    f.write("%d\n" % nodes)
    start = 0
    for a in range(nodes):
        f.write("%d %d\n" % (start, len(adj[a])))
        start += len(adj[a])
    f.write("\n%d\n\n%d\n" % (src, start))
    for a in range(nodes):
        for b in adj[a]:
            f.write("%d %d\n" % (b, int(rng.integers(1, 10))))
cost = [2147483647] * nodes
cost[src] = 0
frontier = [src]
while frontier:
    nxt = []
    for a in frontier:
        for b in adj[a]:
            if cost[b] == 2147483647:
                cost[b] = cost[a] + 1
                nxt.append(b)
    frontier = nxt
with open(os.path.join(folder("bfs", "output"), "reference.txt"), "w") as f:
    f.write("%d\n" % nodes)
    f.write("".join("%d %d\n" % (i, c) for i, c in enumerate(cost)))
