#!/bin/sh
# programs_params.sh: the whole-program tests of kernel parameters of classes with user copy constructors or destructors (tests/programs/params).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/params"
