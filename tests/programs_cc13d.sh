#!/bin/sh
# programs_cc13d.sh: programs of tests/programs/cc13d (issue 13's
# remainders), built with cuemu-nvcc: NVRTC's -fmad and --use_fast_math.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cc13d"
