#!/bin/sh
# programs_thrust.sh: the programs of tests/programs/thrust (CUB's
# device-wide algorithms, Thrust, and kernels of system headers).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/thrust"
