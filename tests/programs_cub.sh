#!/bin/sh
# The CUB and libcu++ programs of tests/programs/cub (built with the
# toolkit's CCCL; see docs/cccl.md), built as one program
# (PROGRAMS_COMBINE, programs.sh) without optimisation, so that CCCL's
# headers are compiled once and quickly (40 s of CPU instead of 96 s; 64 s
# at -O2); each still runs alone. tests/checkers_cub.sh builds
# cub_pipeline.cu optimised, with the checkers.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 PROGRAMS_OPTIONS="-Xcompiler -O0" \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/cub"
