#!/bin/sh
# programs_cc13b.sh: programs of tests/programs/cc13b (issue 13's
# remainders), built with cuemu-nvcc: shared-memory pointers converted to
# 32-bit shared addresses and back, and NVRTC compiling in the dialect
# that -std names.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cc13b"
