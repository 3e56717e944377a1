#!/bin/sh
# programs_trialfin.sh: the programs of tests/programs/trialfin, from a
# trial of computational-finance code written the way public option-pricing
# and risk projects write it (Black-Scholes in float and double with three
# cumulative normals; Monte Carlo with Philox, MRG32k3a, XORWOW and
# scrambled Sobol64 device states kept between launches, antithetic
# variates, warp-shuffle and cooperative_groups::reduce reductions; the
# cuRAND host API's Sobol generators, offsets, orderings and a host
# generator; CRR trees in shared memory, one block per option;
# Longstaff-Schwartz with cuBLAS normal equations, Cholesky, QR and the
# iterative-refinement DDgesv/DDgels; a risk engine with bumps in streams,
# thrust::reduce_by_key, cub::DeviceReduce, thrust::sort, events; a
# __constant__ option, a captured graph, Merton jumps with curand_poisson),
# built with cuemu-nvcc as one combined program and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialfin"
