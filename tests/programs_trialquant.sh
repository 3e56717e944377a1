#!/bin/sh
# programs_trialquant.sh: the programs of tests/programs/trialquant, from a
# trial of quantum-circuit simulators written the way public state-vector
# projects write them (2^n amplitudes in cuDoubleComplex,
# thrust::complex<double> and cuFloatComplex; one-qubit gates by
# bit-insertion index arithmetic, controlled gates, SWAP and a fused gate
# kernel template in a header-only library; the QFT and its inverse,
# Grover's search; probabilities by a shared-memory and shuffle reduction
# on double, cumulative sums by thrust::inclusive_scan and cub::DeviceScan,
# sampling with cuRAND's Philox host and device APIs, collapse; Pauli
# expectations with __popc/__popcll parities, a density matrix with
# cublasZgemm and cublasZdotc; streams, a captured graph replayed, a
# __constant__ gate, a cooperative persistent kernel with grid syncs),
# built with cuemu-nvcc as one combined program and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialquant"
