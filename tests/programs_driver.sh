#!/bin/sh
# programs_driver.sh: the whole-program tests of cuemu-nvcc as a drop-in for nvcc (tests/programs/driver).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/driver"
