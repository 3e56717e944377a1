#!/bin/sh
# The CUB and libcu++ programs of tests/programs/cub (built with the
# toolkit's CCCL; see docs/cccl.md), built as one program (programs.sh's
# GROUP) without optimisation, so that CCCL's headers are compiled once and
# quickly (40 s of CPU instead of 96 s); each still runs alone.
# tests/checkers_cub.sh builds cub_pipeline.cu optimised, with the checkers.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" \
  "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cub" \
  "-Xcompiler -O0 -- cub_exchange cub_pipeline cub_reduce_scan cub_sort libcudacxx
   ptx_simd_shared"
