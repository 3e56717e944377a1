#!/bin/sh
# programs_trialhec4.sh: the whole-program tests written after a trial of
# public CUDA programs (HeCBench) built unmodified with cuemu-nvcc
# (tests/programs/trialhec4).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialhec4"
