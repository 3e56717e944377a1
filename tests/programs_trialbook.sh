#!/bin/sh
# programs_trialbook.sh: programs of tests/programs/trialbook, each reduced
# from a failure of a public CUDA teaching program (textbook chapters and
# tutorials) built unmodified with cuemu-nvcc.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialbook"
