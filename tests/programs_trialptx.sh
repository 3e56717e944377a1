#!/bin/sh
# programs_trialptx.sh: programs of tests/programs/trialptx, from a trial
# of real CUDA code that uses inline PTX and low-level intrinsics as
# high-performance projects do: a GEMM fed by cp.async (with cache
# policies) into ldmatrix and mma.sync (f16, bf16, int8), warp reductions
# and sorting with shfl/vote/redux/match, streaming loads and stores, a
# spin lock with nanosleep, named barriers between producer and consumer
# warps, int4 dequantization with lop3 and f16x2 arithmetic, hashing with
# atom.cas and funnel shifts, and the SIMD video intrinsics;
# ptx_trial_forms.cu holds the forms the trial found missing or wrong.
# The programs are built as one (PROGRAMS_COMBINE, tests/programs.sh).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialptx"
