#!/bin/sh
# device_space_refusals_clang.sh: what nvcc refuses across execution
# spaces (tests/driver/devref/space_refusals.cu, as
# tests/device_space_refusals.sh checks it with g++), refused by
# cuemu-nvcc with clang++ and cuemu's clang plugin with the same messages
# at the same lines: the cases compiled together in a unit that includes
# Thrust (-DSPACE_THRUST, which cuemu-nvcc compiles with clang++), those
# without --expt-relaxed-constexpr with -ccbin clang++. The near misses,
# with Thrust's algorithms and a __host__ __device__ lambda, build and run,
# and build with nvcc. Without cuemu_clang_plugin.so (configure found no
# clang headers) only the near misses are checked.
# tests/device_refusals.sh does the work.
# Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
DEVREF_SOURCE=space_refusals.cu DEVREF_CXX=clang++ \
  exec sh "$srcdir/tests/device_refusals.sh"
