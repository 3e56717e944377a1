#!/bin/sh
# check_cuemu.sh: runs the Check suites of tests/check_cuemu (CK_RUN_SUITE
# and the other Check variables pass through). The suites run through this
# script rather than as the program itself because make schedules a test
# whose prerequisite is a built program after every script test: with
# `make -j2 check`, tests/check_cuemu (about 90 s) then ran alone at the end
# of the suite, one core idle.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${CUEMU_BUILDDIR:-.}/tests/check_cuemu
. "$srcdir/tests/test_tools.sh"
[ -x "$bin" ] || tool_missing check_cuemu.sh "$bin is not built"
exec "$bin"
