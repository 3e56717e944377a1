#!/bin/sh
# The programs of tests/programs/trialcccl: patterns of public CCCL-based code
# (libcu++ atomics and pipelines, cooperative groups, CUB's device-wide algorithms).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcccl"
