#!/bin/sh
# programs_fptr.sh: the whole-program tests of pointers to __device__
# functions that host code copies around (tests/programs/fptr).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/fptr"
