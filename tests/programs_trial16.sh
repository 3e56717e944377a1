#!/bin/sh
# programs_trial16.sh: programs of tests/programs/trial16, each reduced from
# a failure of a public graph, stream-ordered-allocation, multi-GPU,
# driver-API or NVRTC program built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trial16"
