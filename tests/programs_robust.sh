#!/bin/sh
# programs_robust.sh: programs of tests/programs/robust, each a defect of
# the emulator found in a review (the watchdog, stack overflows, device
# variables, graphs, fault reports), built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/robust"
