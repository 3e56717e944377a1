#!/bin/sh
# programs_tex.sh: the test programs of arrays, textures, surfaces and
# intrinsics (tests/programs/tex), combined in one build a set of options
# (programs.sh --combine): 52 s of CPU one build each, 45 s combined.
# tex_surfaces.cu builds by itself, since it checks that a trap's message
# names its kernel as the program declares it (a combined build's kernels
# are in a namespace each).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
exec sh "$srcdir/tests/programs.sh" --combine --alone tex_surfaces \
  "$srcdir/tests/programs/tex"
