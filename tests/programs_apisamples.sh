#!/bin/sh
# programs_apisamples.sh: the whole-program tests of what public CUDA samples
# (graphs, stream-ordered memory, several devices, the driver API and NVRTC)
# showed to be missing or wrong (tests/programs/apisamples).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/apisamples"
