#!/bin/sh
# programs_graphs.sh: the whole-program tests of CUDA Graphs (tests/programs/graphs).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/graphs"
