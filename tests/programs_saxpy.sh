#!/bin/sh
# Thread loops with and without the blocked-thread test (tests/programs/saxpy).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/saxpy"
