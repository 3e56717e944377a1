#!/bin/sh
# programs_trialmini.sh: programs of tests/programs/trialmini, each reduced
# from a scientific mini-app (LULESH 2.0's CUDA port, miniBUDE) built
# unmodified with its own Makefile or CMake and cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialmini"
