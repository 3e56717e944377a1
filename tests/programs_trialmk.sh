#!/bin/sh
# programs_trialmk.sh: programs of tests/programs/trialmk, each reduced
# from a failure of public CUDA programs (olcf's training series, Rodinia,
# PolyBench, NVIDIA's blog samples) or from the idioms a mini-app relies on
# (LULESH 2.0's CUDA port), built unmodified with their own Makefiles and
# cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialmk"
