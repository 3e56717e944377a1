#!/bin/sh
# programs_trialcmake.sh: programs of tests/programs/trialcmake, each reduced
# from a failure of a public CMake project (cuda-samples, FindCUDA projects)
# built with CMAKE_CUDA_COMPILER=cuemu-nvcc, built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcmake"
