#!/bin/sh
# The CUB and libcu++ programs of tests/programs/cub (built with the
# toolkit's CCCL; see docs/cccl.md).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cub"
