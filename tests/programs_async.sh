#!/bin/sh
# programs_async.sh: the whole-program tests of asynchronous streams (work
# that runs after its call returns, waits satisfied by later work, the
# legacy default stream's order, host functions), in tests/programs/async.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/async"
