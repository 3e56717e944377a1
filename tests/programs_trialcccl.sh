#!/bin/sh
# The programs of tests/programs/trialcccl: patterns of public CCCL-based code
# (libcu++ atomics and pipelines, cooperative groups, CUB's device-wide
# algorithms), built as one program (PROGRAMS_COMBINE, programs.sh).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialcccl"
