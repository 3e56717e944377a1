#!/bin/sh
# programs_trialcxx.sh: programs of tests/programs/trialcxx, each reduced
# from a failure of a modern C++17/C++20 CUDA project (concepts, cuda::std
# facilities, expression templates, relocatable device code) built
# unmodified with cuemu-nvcc.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcxx"
