#!/bin/sh
# programs_cli.sh: the whole-program tests of cuemu-nvcc as nvcc's
# drop-in (lambdas that one pass alone compiles, overloads' attributes,
# device code that the host compiler never sees under -Wall,-Werror, kernel
# templates of several namespaces launched with explicit arguments), in
# tests/programs/cli.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/cli"
