#!/bin/sh
# programs_trialcutlass.sh: the programs of tests/programs/trialcutlass, from
# a trial of NVIDIA's CUTLASS (its header-only library and CuTe compiled
# into small programs, as its examples and tutorials are: member aliases
# that g++ refuses, PTX of every architecture in headers, `__global__
# static` kernels, braced initializers in __launch_bounds__), built with
# cuemu-nvcc and run.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcutlass"
