#!/bin/sh
# programs_trialgraph.sh: the programs of tests/programs/trialgraph, from a
# trial of graph analytics written the way Lonestar- and Gunrock-style
# projects write it (CSR graphs read from Matrix Market and DIMACS files or
# generated; topology- and data-driven BFS with warp-aggregated worklists
# and a __device__ flag; SSSP with atomicMin; PageRank with
# cub::DeviceReduce; components, triangles, colouring; load balancing with
# cub::DeviceScan; operators that take functors and __device__ lambdas),
# built with cuemu-nvcc as one combined program and run. The trial's
# collaborative CPU-GPU programs are tests/programs_trialchai.sh.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialgraph"
