#!/bin/sh
# programs_nvrtc.sh: the whole-program tests of NVRTC and of what NVIDIA's
# driver-API, NVRTC and multi-GPU samples showed (tests/programs/nvrtc).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/nvrtc"
