#!/bin/sh
# programs_trialhec.sh: the whole-program tests reduced from public CUDA
# programs (HeCBench, Rodinia) built unmodified with cuemu-nvcc
# (tests/programs/trialhec).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialhec"
