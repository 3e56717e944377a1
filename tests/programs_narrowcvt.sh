#!/bin/sh
# Float and double to char and short in device code, as nvcc converts them (tests/programs/narrowcvt).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/narrowcvt"
