#!/bin/sh
# programs_trialgrx.sh: programs of tests/programs/trialgrx, each reduced
# from a failure of a public-style program of CUDA 12/13 graph features
# (the generic node API, conditional nodes, programmatic edges, device
# graph launch, stream-ordered memory), built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialgrx"
