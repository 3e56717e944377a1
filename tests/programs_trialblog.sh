#!/bin/sh
# The programs of tests/programs/trialblog: patterns of programs written after NVIDIA's
# developer blog and the Programming Guide's newer chapters (FP8 conversions, pipelines,
# clusters, low-precision math).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialblog"
