#!/bin/sh
# programs_hostapi.sh: the whole-program tests of the host API around
# kernels (stream-ordered memory, unified memory, limits, launch attributes,
# properties), in tests/programs/hostapi.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/hostapi"
