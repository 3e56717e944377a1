#!/bin/sh
# programs_trialdb.sh: the programs of tests/programs/trialdb, from a trial
# of GPU query-processing code written the way database and analytics
# engines write it (hash joins on 64-bit keys with atomicCAS and a
# warp-aggregated output counter, a cooperative-groups multimap on
# cuda::atomic_ref, group-by in shared-memory hash tables with float
# min/max by atomicCAS on the bits, sort + reduce_by_key on zip iterators,
# selection on CHAR(16) columns with cub::DeviceSelect, a block scan in a
# union of TempStorage and a decoupled look-back, two-pass radix
# partitioning on a memory pool, a 4-stream pipeline over pinned memory
# with host functions, bitmap and bit-sliced indexes with top-k by bitonic
# and radix block sorts), relocatable device code across files. Built with
# cuemu-nvcc as one combined program (CUB and Thrust are the cost) and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialdb"
