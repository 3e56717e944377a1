#!/bin/sh
# programs_trial.sh: the whole-program tests reduced from public CUDA
# programs built unmodified with cuemu-nvcc (tests/programs/trial).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trial"
