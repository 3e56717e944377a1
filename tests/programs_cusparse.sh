#!/bin/sh
# cuemu's cuSPARSE (tests/programs/cusparse, docs/cusparse.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcusparse through its CUEMU_OPTIONS line): a conjugate
#   gradient solver with cuBLAS on one stream (sparse_cg.cu), SpMV and
#   SpMM against a host reference and cublasDgemm in CSR, COO and 1-based
#   64-bit indices, conversions and sparse vectors (sparse_products.cu),
#   triangular solves (sparse_spsv.cu), csrilu02 and csric02 as
#   preconditioners with SpSV (sparse_ilu.cu), status codes and a host
#   array (sparse_errors.cu);
# - checks that the programs link cuemu's library, not NVIDIA's, also
#   when NVIDIA's libcusparse.so is named by its path, and that the host
#   compiler links the cuemu toolkit's -lcusparse;
# - builds a CMake project linking CUDA::cusparse, and runs it;
# - builds one program with nvcc and NVIDIA's cuSPARSE where there is one
#   (tests/nvcc_kernels.sh compiles all of them).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
dir=$srcdir/tests/programs/cusparse

. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_cusparse.sh "$nvcc is not built"
# NVIDIA's cusparse.h is the header programs include.
toolkit=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$toolkit/include/cusparse.h" ]; then
  tool_missing programs_cusparse.sh \
    "the CUDA toolkit's cusparse.h is not in $toolkit/include"
fi

sh "$srcdir/tests/programs.sh" "$dir"
status=$?
[ "$status" -eq 77 ] && exit 77
failed=0
[ "$status" -eq 0 ] || failed=1

work=$builddir_abs/tests/tmp/programs_cusparse.$$
mkdir -p "$work" || exit 1

# The library a program links: cuemu's, also for NVIDIA's path.
if "$nvcc" "$dir/cmake/version.cu" -o "$work/version_cu" \
  "$toolkit/lib64/libcusparse.so" >"$work/build.log" 2>&1; then
  if ldd "$work/version_cu" | grep -q libcuemu_cusparse.so &&
    ! ldd "$work/version_cu" | grep -q 'libcusparse\.so'; then
    echo "PASS: NVIDIA's libcusparse.so by its path links cuemu's cuSPARSE"
  else
    fail "NVIDIA's libcusparse.so by its path: $(ldd "$work/version_cu" | grep -i sparse)"
  fi
  if "$work/version_cu" | grep -qx PASS; then
    echo "PASS: a program linked through the path runs"
  else
    fail "a program linked through the path: $("$work/version_cu" 2>&1 | head -5)"
  fi
else
  fail "cuemu-nvcc with $toolkit/lib64/libcusparse.so: $(head -5 "$work/build.log")"
fi

# The host compiler linking with the cuemu toolkit's lib64 (-lcusparse
# there is a linker script naming cuemu's cuSPARSE).
lib64=$builddir_abs/.libs/cuemu-toolkit/lib64
printf '%s\n' 'int cusparseGetProperty(int, int *);' \
  'int main(void) { int v = 0; return cusparseGetProperty(0, &v) != 0 || v < 12; }' \
  >"$work/version.c"
if "${CC:-cc}" "$work/version.c" -o "$work/version" -L"$lib64" -lcusparse \
  >"$work/cc.log" 2>&1 && "$work/version"; then
  echo "PASS: a host-compiler link with the cuemu toolkit's -lcusparse runs"
else
  fail "host-compiler link with -lcusparse: $(head -3 "$work/cc.log")"
fi

# CMake: CUDA::cusparse from FindCUDAToolkit on the cuemu toolkit.
if command -v cmake >/dev/null 2>&1; then
  cmake_build=$work/cmake
  if cmake -S "$dir/cmake" -B "$cmake_build" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/cmake.log" 2>&1 &&
    cmake --build "$cmake_build" >>"$work/cmake.log" 2>&1 &&
    "$cmake_build/version" | grep -qx PASS; then
    echo "PASS: CMake's CUDA::cusparse links cuemu's cuSPARSE"
  else
    fail "CMake with CUDA::cusparse: $(tail -5 "$work/cmake.log")"
  fi
else
  echo "SKIP: CMake: cmake is not installed"
fi

# One program linked with the real toolkit's cuSPARSE (tests/nvcc_kernels.sh
# compiles every program with nvcc).
NVCC=$(find_nvcc)
if [ -n "$NVCC" ]; then
  if (cd "$dir" && "$NVCC" -arch=sm_90 sparse_cg.cu \
    -o "$work/nv_cg" -lcusparse -lcublas) >"$work/nv.log" 2>&1; then
    echo "PASS: sparse_cg builds and links with nvcc and NVIDIA's cuSPARSE"
  else
    fail "sparse_cg with nvcc: $(head -5 "$work/nv.log")"
  fi
else
  echo "SKIP: nvcc build: no nvcc"
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
