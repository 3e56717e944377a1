#!/bin/sh
# programs_trialml.sh: the programs of tests/programs/trialml, from a trial
# of machine-learning kernel code written the way public inference and
# training projects write it (kernels in headers templated on float,
# __half, __nv_bfloat16 and fp8; cub block primitives; wmma; cuda::pipeline
# and cooperative_groups::memcpy_async; > 48 KB of dynamic shared memory;
# the occupancy API; streams and events), built with cuemu-nvcc as one
# combined program (CUB's build is the cost) and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialml"
