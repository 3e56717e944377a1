#!/bin/sh
# Warp-synchronous volatile shared-memory code run in lockstep (tests/programs/warpvol).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/warpvol"
