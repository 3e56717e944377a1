#!/bin/sh
# programs_grx2.sh: programs of tests/programs/grx2 (edge data given to
# stream capture, host and managed memory pools), built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/grx2"
