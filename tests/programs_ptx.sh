#!/bin/sh
# programs_ptx.sh: the whole-program tests of inline PTX of sm_90 and of
# CCCL reached from modules (tests/programs/ptx).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/ptx"
