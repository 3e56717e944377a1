#!/bin/sh
# Math functions against CUDA's documented ulp bounds over many inputs (tests/programs/mathulp).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/mathulp"
