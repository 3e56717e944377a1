#!/bin/sh
# programs_pools.sh: the programs of tests/programs/pools (memory pools that
# cache and reuse, per-device models, streams and events tied to devices).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/pools"
