#!/bin/sh
# programs_trialpar.sh: the programs of tests/programs/trialpar, from a
# trial of the Parboil benchmark suite's CUDA versions (a phase timer that
# records and queries events at every switch, then checks its copies with
# cudaGetLastError; kernels #included from .cu files; C drivers), built
# with cuemu-nvcc and run.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialpar"
