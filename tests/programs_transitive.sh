#!/bin/sh
# programs_transitive.sh: programs of tests/programs/transitive, built with
# cuemu-nvcc, each by itself (a combined build would read every program's
# header): the names that a .cu file may use with nvcc after including one
# header alone (cuda_runtime.h's, <cooperative_groups.h>'s...), which
# cuemu-nvcc must accept too (docs/nvcc-checks.md, "What a header brings").
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/transitive"
