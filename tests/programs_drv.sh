#!/bin/sh
# programs_drv.sh: the whole-program tests of the driver API's generic graph
# nodes, external objects and kernel calls, and of linked images written to
# files and loaded by other processes (tests/programs/drv).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/drv"
