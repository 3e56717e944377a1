#!/bin/sh
# programs_devrt.sh: the whole programs of the device runtime (launches from
# kernel code, the device heap, tensor-core fragments, clusters).
# They run twice: as they are, and under schedule perturbation
# (CUEMU_CHECK_SCHEDULES=1), whose second run of a grid must see the same
# launch results and last errors as the first, and must not run the grids
# it launches again (cdp_errors, heap_basics once failed there).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1
export PROGRAMS_COMBINE
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/devrt" || exit 1
CUEMU_CHECK_SCHEDULES=1 exec sh "$srcdir/tests/programs.sh" \
  "$srcdir/tests/programs/devrt"
