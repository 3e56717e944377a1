#!/bin/sh
# programs_cc13.sh: the whole-program tests of the compiler driver's remainders of issue 13 (tests/programs/cc13): kernel parameters made as nvcc's stub makes them, big parameters.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cc13"
