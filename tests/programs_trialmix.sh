#!/bin/sh
# programs_trialmix.sh: the programs of tests/programs/trialmix, from a trial
# of public benchmarks and small applications (mixbench's templated
# float/double/half2/int kernels, a lock-free GPU hash table, a k-means, a
# neural network in classes, gpu-burn's driver-API compare kernel), each
# written in the style of what failed there and built as one combined
# program.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialmix"
