#!/bin/sh
# programs_thrust.sh: the programs of tests/programs/thrust (CUB's
# device-wide algorithms, Thrust, and kernels of system headers). The four
# that include CCCL's device-wide headers are built as one program
# (programs.sh's GROUP), so that those headers are compiled once;
# header_library (-isystem minilib, optimised) is built by itself.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" \
  "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/thrust" \
  "cub_reduce_scan cub_select cub_sort thrust_algorithms"
