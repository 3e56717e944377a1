#!/bin/sh
# programs_checkers.sh: whole programs built with checkers that must report
# nothing (tests/programs/checkers).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/checkers"
