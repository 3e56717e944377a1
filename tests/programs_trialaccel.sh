#!/bin/sh
# programs_trialaccel.sh: the programs of tests/programs/trialaccel, from a
# trial of the accel-sim GPU application collection (its microbenchmarks
# read %clock with inline PTX around pointer chases, build each .cu into a
# static library with `nvcc --lib` and link it), built with cuemu-nvcc and
# run.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialaccel"
