#!/bin/sh
# programs_drvgraph.sh: the whole-program tests of kernel node attributes, arrays in
# graphs, the driver API's graphs, linking and libraries, external memory and
# semaphores (tests/programs/drvgraph).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/drvgraph"
