#!/bin/sh
# programs_trialgame.sh: the programs of tests/programs/trialgame, from a
# trial of small public CUDA applications (games, puzzles, sorts, graphs,
# fractals, an MD5 cracker), each written in the style of what failed there
# and built as one combined program.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialgame"
