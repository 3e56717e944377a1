#!/bin/sh
# programs_cli.sh: the whole-program tests of cuemu-nvcc as nvcc's
# drop-in (lambdas that one pass alone compiles, overloads' attributes), in
# tests/programs/cli.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cli"
