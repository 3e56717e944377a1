#!/bin/sh
# programs_trialhashdb.sh: the programs of tests/programs/trialhashdb, from
# a trial of GPU data-structure and database code written the way public
# GPU hash-table and GPU database projects write it (headers of templated
# kernels and device classes under hashdb/, included as <hashdb/...> with
# -I.; a host-side .cpp of reference computations): open addressing with
# packed 64-bit atomicCAS slots, warp-cooperative buckets with
# __ballot_sync and tiled_partition<8>, per-bucket spin locks contended by
# lanes of one warp (bare, __nanosleep back-off, cuda::atomic_ref), ticket
# locks, lock-free chains and a tagged stack, hash join and group-by with
# 64-bit and double atomics, CUB radix partitioning, a bloom filter with
# __funnelshift_l/__byte_perm/__popc, __match_any_sync aggregation,
# coalesced and labeled groups, libcu++ semaphores, a chained scan,
# cooperative launch, device malloc, managed memory and Thrust. Built with
# cuemu-nvcc as one combined program (CUB and Thrust are the cost) and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialhashdb"
