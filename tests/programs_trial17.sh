#!/bin/sh
# programs_trial17.sh: programs of tests/programs/trial17, from a trial of
# the styles of popular CUDA teaching and research repositories, built
# with cuemu-nvcc:
# - book_lock_zerocopy: "CUDA by example"-style chapters sharing
#   common/book.h (HANDLE_ERROR): a hash table under per-bucket spin locks
#   taken by the lanes of a warp in turn, zero-copy mapped memory read by
#   two host threads' kernels, two streams of interleaved copies;
# - sgemm_tiles: a matrix-multiplication tutorial's 1D tiling, float4
#   tiling and warp tiling (templates, __launch_bounds__ of a template
#   argument), each against cuBLAS's cublasGemmEx;
# - scan_sort: a course assignment's shared-memory histogram, recursive
#   Blelloch scan and radix sort against host references;
# - cg_reduce_libcudacxx: nvcc's <cooperative_groups/reduce.h> brings
#   libcu++'s <cuda/std/functional> (cuda::std::max, cuda::std::plus), and
#   cg::plus derives from cuda::std::plus.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
# All four are built as one program (PROGRAMS_COMBINE, programs.sh).
PROGRAMS_COMBINE=1 \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trial17"
