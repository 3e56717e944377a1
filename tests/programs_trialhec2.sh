#!/bin/sh
# programs_trialhec2.sh: the tests reduced from a HeCBench-style trial of
# CUB, Thrust and libcu++ programs built with cuemu-nvcc
# (tests/programs/trialhec2): each program builds and runs (programs.sh:
# nvcc's traits of extended lambdas, cooperative_groups::binary_partition,
# initcheck with racecheck in a clang++ unit),
# and host code that asks libcu++ for the return type of a __device__
# lambda is refused as nvcc refuses it, with libcu++'s static_assert
# (extended_lambda_traits.cu with -DQUERY_DEVICE_LAMBDA_RETURN); with nvcc
# present, nvcc is checked to refuse it too.
# Costs about 14 s of CPU on a cold cache (two compiles of a libcu++ unit
# with g++, one of them refused, a cooperative groups program and a
# checked one), 2 s warm, and 2 s more with nvcc.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
dir=$srcdir/tests/programs/trialhec2
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
work=$(mktemp -d)
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

sh "$srcdir/tests/programs.sh" "$dir" || failed=1

# The message of libcu++'s static_assert, as nvcc prints it too.
message='Attempt to use an extended __device__ lambda in a context that requires querying its return type in host code'
if (cd "$dir" && "$nvcc" --extended-lambda -DQUERY_DEVICE_LAMBDA_RETURN \
  -c extended_lambda_traits.cu -o "$work/refused.o") >"$work/refused.log" 2>&1; then
  fail "invoke_result of a __device__ lambda in host code compiles"
elif grep -q "$message" "$work/refused.log"; then
  echo "PASS: invoke_result of a __device__ lambda in host code is refused"
else
  fail "refused without libcu++'s message: $(cat "$work/refused.log")"
fi

NVCC=$(find_nvcc)
if [ -n "$NVCC" ]; then
  if (cd "$dir" && "$NVCC" -std=c++17 -arch=sm_90 --extended-lambda \
    -DQUERY_DEVICE_LAMBDA_RETURN -c extended_lambda_traits.cu \
    -o "$work/nvcc.o") >"$work/nvcc.log" 2>&1; then
    fail "nvcc accepts invoke_result of a __device__ lambda in host code"
  elif grep -q "$message" "$work/nvcc.log"; then
    echo "PASS: nvcc refuses it with the same message"
  else
    fail "nvcc refused it otherwise: $(cat "$work/nvcc.log")"
  fi
fi

rm -rf "$work"
exit $failed
