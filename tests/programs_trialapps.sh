#!/bin/sh
# programs_trialapps.sh: programs of tests/programs/trialapps, each reduced
# from a failure of small application projects (a path tracer, SPH, graph
# analytics, an image pipeline, N-body, an MLP trainer, a CG solver,
# Mandelbrot with dynamic parallelism, a stream pipeline, a CMake library)
# built with their own Makefiles or CMake and cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialapps"
