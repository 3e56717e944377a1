#!/bin/sh
# programs_tma.sh: the whole-program tests of the tensor memory accelerator
# (cp.async.bulk.tensor and the maps of cuTensorMapEncodeTiled;
# tests/programs/tma).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/tma"
