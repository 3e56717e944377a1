#!/bin/sh
# programs_trialcuco.sh: the whole-program tests written after a trial of
# public CUDA code (NVIDIA's cuCollections) built unmodified with cuemu-nvcc
# (tests/programs/trialcuco).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcuco"
