#!/bin/sh
# programs_checkers.sh: whole programs built with checkers that must report
# nothing (tests/programs/checkers), initcheck's check of shared memory
# included (CUEMU_CHECK_SHARED_INIT=1, off by default): the programs that
# read shared memory inline or through the whole check must agree there too.
# constant_table_past_end is built alone: its point is where its one
# variable and that variable's host object lie.
CUEMU_CHECK_SHARED_INIT=1
PROGRAMS_ALONE="${PROGRAMS_ALONE:-} constant_table_past_end"
export CUEMU_CHECK_SHARED_INIT PROGRAMS_ALONE
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/checkers"
