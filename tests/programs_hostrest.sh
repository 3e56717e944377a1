#!/bin/sh
# programs_hostrest.sh: programs of tests/programs/hostrest, the host API
# remainders of issue 16 (a green context's default stream, interprocess
# event records and handles, the driver calls of checkpoints and graphics
# interop, concurrent managed access), built with cuemu-nvcc; each checks
# itself against CUDA's documented behaviour.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/hostrest"
