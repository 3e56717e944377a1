#!/bin/sh
# programs_thrust.sh: the programs of tests/programs/thrust (CUB's
# device-wide algorithms, Thrust, and kernels of system headers). The four
# that include CCCL's device-wide headers are built as one program
# (PROGRAMS_COMBINE, programs.sh: --extended-lambda for all, so that their
# options are the same), so that those headers are compiled once;
# header_library (-isystem minilib, optimised) is built by itself.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 PROGRAMS_ALONE=header_library \
  PROGRAMS_OPTIONS=--extended-lambda \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/thrust"
