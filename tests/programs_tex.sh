#!/bin/sh
# programs_tex.sh: the test programs of arrays, textures, surfaces and
# intrinsics (tests/programs/tex), combined in one build a set of options
# (PROGRAMS_COMBINE, programs.sh): 52 s of CPU one build each, 45 s combined.
# tex_surfaces.cu builds by itself, since it checks that a trap's message
# names its kernel as the program declares it (a combined build's kernels
# are in a namespace each).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 PROGRAMS_ALONE=tex_surfaces \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/tex"
