#!/bin/sh
# programs_trialpub3.sh: programs of tests/programs/trialpub3, each reduced
# from a failure of a public CUDA program (course exercises, book examples,
# benchmark suites) built unmodified with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialpub3"
