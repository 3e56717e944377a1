#!/bin/sh
# programs_ptx.sh: the whole-program tests of inline PTX of sm_90 and of
# CCCL reached from modules (tests/programs/ptx). The wgmma programs are
# built as one (PROGRAMS_COMBINE, tests/programs.sh); the others alone, as
# before.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 PROGRAMS_ALONE="cccl_bulk_barrier ptx_sm90 relaxed_vector_pairs" \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/ptx"
