#!/bin/sh
# programs_trialbio.sh: the programs of tests/programs/trialbio, from a
# trial of bioinformatics kernels written the way public aligners, k-mer
# counters and read mappers write them: Smith-Waterman with affine gaps
# (Gotoh) one thread per pair and one warp per pair (the anti-diagonal
# carried by __shfl_up_sync), the substitution matrix in __constant__
# memory, sequences packed 2 or 4 bits a base, the maximum of three scores
# by inline PTX's vmax.s32.s32.s32.max, a CUDASW++-style database search
# (16-bit SIMD intrinsics, the query profile in a texture object, two
# streams from pinned memory, cooperative groups' reduce and cub's
# WarpReduce), Needleman-Wunsch by 16x16 tiles with one launch per tile
# diagonal into pitched memory, canonical k-mers counted in an
# open-addressing hash table (atomicCAS on 64-bit keys) and by Thrust's
# sort and reduce_by_key and CUB's run-length encoding, an FM-index backward
# search (__ldg of occurrence checkpoints, __popc of the packed BWT), and
# p-distances by __popc with a block argmin of (value, index) pairs merged
# by a 64-bit atomicMin. The library sources are included by the programs
# that use them, so that the programs build as one (PROGRAMS_COMBINE), with
# every checker; then they run again under the reverse and a random
# schedule, where their results must not change.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
keep=$(cd "$builddir" && pwd)/tests/tmp/programs_trialbio.$$
mkdir -p "$keep" || exit 1
PROGRAMS_COMBINE=1 PROGRAMS_KEEP=$keep PROGRAMS_OPTIONS=--check=all \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialbio" || {
  rm -rf "$keep"
  exit 1
}
status=0
for schedule in reverse random:7; do
  for program in sw_align sw_simd nw_align kmer_count fm_search pdist; do
    out=$(cd "$keep" && CUEMU_SCHEDULE=$schedule "./$program" 2>&1)
    if printf '%s\n' "$out" | grep -qx PASS; then
      echo "PASS: $program under CUEMU_SCHEDULE=$schedule"
    else
      echo "FAIL: $program under CUEMU_SCHEDULE=$schedule:"
      printf '%s\n' "$out"
      status=1
    fi
  done
done
rm -rf "$keep"
exit $status
