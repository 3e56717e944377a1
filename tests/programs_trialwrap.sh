#!/bin/sh
# programs_trialwrap.sh: programs of tests/programs/trialwrap, each reduced
# from a failure of the examples of cuda-api-wrappers (a C++ wrapper of the
# runtime and driver APIs whose examples check the APIs' exact answers)
# built with cuemu-nvcc.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialwrap"
