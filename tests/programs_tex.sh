#!/bin/sh
# programs_tex.sh: the test programs of arrays, textures, surfaces and
# intrinsics (tests/programs/tex).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/tex"
