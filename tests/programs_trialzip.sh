#!/bin/sh
# programs_trialzip.sh: the programs of tests/programs/trialzip, from a
# trial of code in the style of public CUDA data-compression and
# bit-manipulation projects (kernels in headers, zipk/*.cuh), each checked
# against a host computation:
# - rle: run-length coding with cub::DeviceRunLengthEncode::Encode and
#   DeviceScan::ExclusiveSum (the two-call temporary storage idiom through
#   a lambda, cudaMallocAsync on a non-blocking stream), run heads by
#   DeviceSelect::Flagged, DeviceSelect::If with a functor, a byte
#   histogram by DeviceHistogram::HistogramEven;
# - huffman: a privatised shared-memory histogram, code lengths on the host,
#   the code book in __constant__ memory (cudaMemcpyToSymbol), bit offsets
#   from a CUB scan, codes written with atomicOr into words they straddle,
#   a chunk-parallel decoder reading windows with __funnelshift_l;
# - bitpack: every width 1..32 (found by __clz after an OR reduction of
#   shuffles, frame of reference by atomicMin), packing by __shfl_sync,
#   unpacking by shuffles and __funnelshift_r, unpacking by 32 kernel
#   template instances dispatched through a fold expression, bit planes by
#   __ballot_sync, delta and zig-zag coding with a __shfl_up_sync scan, and
#   __brev, __popc(ll), __ffs(ll), __clz(ll), __byte_perm and 64-bit
#   shifts against host models;
# - lz77: one block per 4 KB chunk in extern __shared__ memory with a hash
#   table of positions filled by atomicExch, tokens appended with
#   warp-aggregated atomics (coalesced_threads(), cg::reduce and
#   cg::exclusive_scan on it, __match_any_sync and __activemask), decoded
#   on the host;
# - bloom: a Bloom filter of 64-bit keys (MurmurHash3's finaliser, double
#   hashing, __umul64hi for the range), atomicOr insertion, uint4 loads
#   through __ldg, false positives against the host's filter.
# Built as the trial built them, -arch=sm_75 -gencode
# arch=compute_80,code=sm_80, so that the default 9.0 device runs the
# compute_75 pass's code: rle's DeviceSelect::If then ran
# DeviceSelect::Flagged's sweep kernel (the variants of kernel template
# instances were found by a name that clang++ gives without template
# arguments) and a deduced launch of expand_runs<unsigned char, int> read
# its arguments from the launch's tuple as parameters ("invalid memory
# access"); tests/cuda_arch_passes.sh has both. The trial's sixth program
# (a dictionary coder on Thrust's sort, unique and lower_bound and CUB's
# radix sort, block and warp primitives) and rle's Thrust part are left
# out here for their build cost; thrust::sort failed there on a 9.0 device
# ("invalid configuration argument": the first pass's launch bounds), also
# in tests/cuda_arch_passes.sh. The programs are built as one (-Xcompiler -O0;
# 20 s of CPU with the runs) and run, then again in a random thread order.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
work=$(cd "$builddir" && pwd)/tests/tmp/programs_trialzip.$$
mkdir -p "$work" || exit 1
PROGRAMS_COMBINE=1 PROGRAMS_KEEP=$work/programs \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialzip"
status=$?

failed=0
for name in rle huffman bitpack lz77 bloom; do
  if [ -x "$work/programs/$name" ]; then
    passes "$name-random" \
      env CUEMU_SCHEDULE=random:7 "$work/programs/$name"
  else
    fail "$name.cu: programs.sh did not build it"
  fi
done
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
