#!/bin/sh
# The programs of tests/programs/trialcccl: patterns of public CCCL-based code
# (libcu++ atomics and pipelines, cooperative groups, CUB's device-wide
# algorithms), built as one program (programs.sh's GROUP).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" \
  "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcccl" \
  "cub_device_more libcudacxx_sync_patterns"
