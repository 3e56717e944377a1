#!/bin/sh
# programs_trialmd.sh: the programs of tests/programs/trialmd, from a trial
# of molecular-dynamics and particle code written the way public GPU MD
# packages and N-body samples write it (cell lists binned with atomicAdd and
# sorted with thrust::sort_by_key, neighbour lists with a skin, templated
# force functors, float4 positions through __ldg, shared-memory N-body
# tiles, B-spline charge spreading with float atomics and a cuFFT round
# trip, curand Philox states kept between launches and reproduced on the
# host, warp-aggregated atomics, NVTX, stream priorities, cub block
# primitives), built with cuemu-nvcc as one combined program and run.
# warp_aggregated_clang is built with clang++ (whose noundef analysis
# deleted the lanes that pass a leader's unset value to a shuffle). The
# separately compiled CMake project of the trial is
# tests/programs_trialmd_project.sh.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialmd"
