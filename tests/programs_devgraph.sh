#!/bin/sh
# programs_devgraph.sh: programs of tests/programs/devgraph, device graph
# launch (graphs instantiated for device launch and launched from kernel
# code), built with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/devgraph"
