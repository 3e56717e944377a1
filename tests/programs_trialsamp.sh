#!/bin/sh
# programs_trialsamp.sh: programs of tests/programs/trialsamp, each reduced
# from a failure of a CUDA 13 samples-style CMake project (graphs, stream-
# ordered allocation, several GPUs, the driver API and NVRTC, clusters)
# built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialsamp"
