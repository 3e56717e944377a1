#!/bin/sh
# programs_trialhmark.sh: the programs of tests/programs/trialhmark, from a
# trial of the Hetero-Mark benchmarks' CUDA ports (AES, Black-Scholes, EP,
# FIR, GA, HIST, KMeans, PageRank), each written in the style of what
# failed there and built as one combined program.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialhmark"
