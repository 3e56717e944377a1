#!/bin/sh
# programs_trialjit.sh: programs of tests/programs/trialjit, each reduced
# from a failure of a public program that JIT-compiles kernels with NVRTC
# or loads modules with the driver API (jitify and others), built with
# cuemu-nvcc.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialjit"
