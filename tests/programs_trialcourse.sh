#!/bin/sh
# programs_trialcourse.sh: the programs of tests/programs/trialcourse, from a
# trial of course- and from-scratch-style CUDA C++ (a teaching repository's
# Makefile with -O3 -lineinfo -arch, a CMake project with
# CUDA_SEPARABLE_COMPILATION): classes owning device memory (RAII, moves,
# deleted copies) and an error macro that throws std::runtime_error; a
# two-layer network of virtual Layer classes launching a tiled matmul, ReLU
# and a warp-shuffle softmax with cross-entropy, trained against a host
# implementation; an n-body step with float4, rsqrtf and shared tiles; a 2D
# heat equation on managed memory (CUDA 13's cudaMemLocation prefetch and
# advice, the occupancy API, events); cuRAND's host and device APIs in one
# program. They are built as one program (PROGRAMS_COMBINE), and the one
# about library outputs under initcheck by itself (its --check).
# Then the separate-compilation part, as the course Makefile builds it:
# __device__ functions, a __device__ counter and a __constant__ table
# defined in one .cu and used by kernels of another (extern), compiled with
# -rdc=true, archived with -lib and linked with a program that uses them.
# About 17 s of CPU (CUEMU_NO_CACHE=1).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
cc=$(cd "$builddir" && pwd)/cuemu-nvcc
[ -x "$cc" ] || tool_missing programs_trialcourse.sh "$cc is not built"
PROGRAMS_COMBINE=1 sh "$srcdir/tests/programs.sh" \
  "$srcdir/tests/programs/trialcourse"
status=$?

work=$(cd "$builddir" && pwd)/tests/tmp/programs_trialcourse.$$
mkdir -p "$work" || exit 1
failed=0
sep=$srcdir/tests/programs/trialcourse/sepcomp
flags="-O3 -lineinfo -arch=sm_90 -std=c++17"
# $flags is split into words on purpose.
# shellcheck disable=SC2086
if (cd "$work" &&
  "$cc" $flags -rdc=true -I"$sep/lib" -c "$sep/lib/physics.cu" -o physics.o &&
  "$cc" $flags -rdc=true -I"$sep/lib" -c "$sep/lib/integrate.cu" \
    -o integrate.o &&
  "$cc" $flags -lib physics.o integrate.o -o libphysics.a &&
  "$cc" $flags -rdc=true -I"$sep/lib" "$sep/app/main.cu" libphysics.a \
    -o sepcomp) >"$work/build.out" 2>&1; then
  if (cd "$work" && ./sepcomp) >"$work/run.out" 2>&1 &&
    grep -q '^PASS' "$work/run.out"; then
    echo "PASS: sepcomp (-rdc=true objects, a -lib archive, extern __device__ and __constant__)"
  else
    fail "sepcomp: $(tail -5 "$work/run.out")"
  fi
else
  fail "sepcomp does not build: $(tail -20 "$work/build.out")"
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
