#!/bin/sh
# programs_trialuda.sh: the programs of tests/programs/trialuda, from a
# trial of Udacity CS344's problem sets (greyscale, blur, tone mapping with
# a min/max reduction, histogram and scan, red-eye removal with a radix
# sort, a fast histogram, seamless cloning by Jacobi iterations) as
# students' forks solved them, built with their Makefiles pointed at
# cuemu-nvcc and run on small images.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialuda"
