#!/bin/sh
# programs_devgraph.sh: programs of tests/programs/devgraph, device graph
# launch (graphs instantiated for device launch and launched from kernel
# code), built with cuemu-nvcc.
# They run twice: as they are, and under schedule perturbation
# (CUEMU_CHECK_SCHEDULES=1), whose second run of a grid must get the same
# results from its launches of graphs as the first.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/devgraph" || exit 1
CUEMU_CHECK_SCHEDULES=1 exec sh "$srcdir/tests/programs.sh" \
  "$srcdir/tests/programs/devgraph"
