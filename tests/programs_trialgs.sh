#!/bin/sh
# programs_trialgs.sh: the whole-program tests of what the trial of 3D
# Gaussian Splatting rasterizers (graphdeco-inria's diff-gaussian-rasterization
# and the Taming 3DGS fork, built by CMake with separable compilation) showed
# to be wrong (tests/programs/trialgs).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialgs"
