#!/bin/sh
# programs_dialect.sh: the whole-program tests of what nvcc's two passes
# and its -std dialects mean for a program (a __device__ variable
# template's instance that only host code names), in tests/programs/dialect.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/dialect"
