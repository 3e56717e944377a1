#!/bin/sh
# cuemu's cuSOLVER, its dense API (tests/programs/cusolver, docs/cusolver.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcusolver through its CUEMU_OPTIONS line): a linear solver
#   in the style of the samples' cuSolverDn_LinearSolver, Cholesky, LU and
#   QR with cuBLAS on one stream (solver_linear.cu); every factorization in
#   S, D, C and Z and the 64-bit generic API checked by residuals
#   (solver_types.cu); syevd/heevd and gesvd (solver_spectral.cu); bad
#   arguments, singular and indefinite matrices, stream order and a host
#   array (solver_errors.cu);
# - checks that the programs link cuemu's library, not NVIDIA's, also
#   when NVIDIA's libcusolver.so is named by its path, and that the host
#   compiler links the cuemu toolkit's -lcusolver;
# - builds a CMake project linking CUDA::cusolver, and runs it;
# - builds the smallest program with nvcc and NVIDIA's cuSOLVER where there
#   is one (tests/nvcc_kernels.sh compiles all of them, with their
#   NVCC_OPTIONS -lcusolver).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
dir=$srcdir/tests/programs/cusolver

. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_cusolver.sh "$nvcc is not built"
# NVIDIA's cusolverDn.h is the header programs include.
toolkit=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$toolkit/include/cusolverDn.h" ]; then
  tool_missing programs_cusolver.sh \
    "the CUDA toolkit's cusolverDn.h is not in $toolkit/include"
fi

sh "$srcdir/tests/programs.sh" "$dir"
status=$?
[ "$status" -eq 77 ] && exit 77
failed=0
[ "$status" -eq 0 ] || failed=1

work=$builddir_abs/tests/tmp/programs_cusolver.$$
mkdir -p "$work" || exit 1

# The library a program links: cuemu's, also for NVIDIA's path.
if "$nvcc" "$dir/cmake/version.cu" -o "$work/version_cu" \
  "$toolkit/lib64/libcusolver.so" >"$work/build.log" 2>&1; then
  if ldd "$work/version_cu" | grep -q libcuemu_cusolver.so &&
    ! ldd "$work/version_cu" | grep -q 'libcusolver\.so'; then
    echo "PASS: NVIDIA's libcusolver.so by its path links cuemu's cuSOLVER"
  else
    fail "NVIDIA's libcusolver.so by its path: $(ldd "$work/version_cu" | grep -i sparse)"
  fi
  if "$work/version_cu" | grep -qx PASS; then
    echo "PASS: a program linked through the path runs"
  else
    fail "a program linked through the path: $("$work/version_cu" 2>&1 | head -5)"
  fi
else
  fail "cuemu-nvcc with $toolkit/lib64/libcusolver.so: $(head -5 "$work/build.log")"
fi

# The host compiler linking with the cuemu toolkit's lib64 (-lcusolver
# there is a linker script naming cuemu's cuSOLVER).
lib64=$builddir_abs/.libs/cuemu-toolkit/lib64
printf '%s\n' 'int cusolverGetProperty(int, int *);' \
  'int main(void) { int v = 0; return cusolverGetProperty(0, &v) != 0 || v < 12; }' \
  >"$work/version.c"
if "${CC:-cc}" "$work/version.c" -o "$work/version" -L"$lib64" -lcusolver \
  >"$work/cc.log" 2>&1 && "$work/version"; then
  echo "PASS: a host-compiler link with the cuemu toolkit's -lcusolver runs"
else
  fail "host-compiler link with -lcusolver: $(head -3 "$work/cc.log")"
fi

# CMake: CUDA::cusolver from FindCUDAToolkit on the cuemu toolkit.
if command -v cmake >/dev/null 2>&1; then
  cmake_build=$work/cmake
  if cmake -S "$dir/cmake" -B "$cmake_build" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/cmake.log" 2>&1 &&
    cmake --build "$cmake_build" >>"$work/cmake.log" 2>&1 &&
    "$cmake_build/version" | grep -qx PASS; then
    echo "PASS: CMake's CUDA::cusolver links cuemu's cuSOLVER"
  else
    fail "CMake with CUDA::cusolver: $(tail -5 "$work/cmake.log")"
  fi
else
  echo "SKIP: CMake: cmake is not installed"
fi

# One program linked with the real toolkit's cuSOLVER (tests/nvcc_kernels.sh
# compiles every program with nvcc).
NVCC=$(find_nvcc)
if [ -n "$NVCC" ]; then
  if (cd "$dir" && "$NVCC" -arch=sm_90 cmake/version.cu \
    -o "$work/nv_version" -lcusolver -lcublas) >"$work/nv.log" 2>&1; then
    echo "PASS: version.cu builds and links with nvcc and NVIDIA's cuSOLVER"
  else
    fail "version.cu with nvcc: $(head -5 "$work/nv.log")"
  fi
else
  echo "SKIP: nvcc build: no nvcc"
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
