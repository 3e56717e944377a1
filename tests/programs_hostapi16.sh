#!/bin/sh
# programs_hostapi16.sh: the whole-program tests of the host API calls that
# issue 16 left (the error log, async notifications, valid devices, a
# library's variables per device), in tests/programs/hostapi16.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/hostapi16"
