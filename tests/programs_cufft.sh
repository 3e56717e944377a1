#!/bin/sh
# cuemu's cuFFT (tests/programs/cufft, docs/cufft.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcufft through its CUEMU_OPTIONS line): 1-D transforms of
#   every type against a direct DFT for lengths with small and prime
#   factors and 1 (fft_accuracy.cu), a convolution through FFTs in stream
#   order (fft_convolution.cu), 2-D and 3-D plans with R2C/C2R roundtrips
#   in and out of place (fft_multidim.cu), the advanced layout and work
#   areas (fft_plan_many.cu), status codes (fft_errors.cu), a host
#   array as input (fft_fault.cu) and executions captured into a graph
#   and replayed (fft_graph.cu), cufftXt's single-GPU calls with half
#   precision (fft_xt.cu), a spectral Poisson solver (fft_poisson.cu);
# - checks that every function cufft.h declares is exported by cuemu's
#   cuFFT, and that the programs link cuemu's library, not NVIDIA's, also
#   when NVIDIA's libcufft.so is named by its path;
# - checks that cuFFTW (-lcufftw) is still refused with a message;
# - builds a CMake project linking CUDA::cufft, and runs it;
# - builds one program with nvcc and NVIDIA's cuFFT where there is one
#   (tests/nvcc_kernels.sh compiles all of them).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
dir=$srcdir/tests/programs/cufft

. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_cufft.sh "$nvcc is not built"
# NVIDIA's cufft.h is the header programs include.
toolkit=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$toolkit/include/cufft.h" ]; then
  tool_missing programs_cufft.sh \
    "the CUDA toolkit's cufft.h is not in $toolkit/include"
fi

sh "$srcdir/tests/programs.sh" "$dir"
status=$?
[ "$status" -eq 77 ] && exit 77
failed=0
[ "$status" -eq 0 ] || failed=1

work=$builddir_abs/tests/tmp/programs_cufft.$$
mkdir -p "$work" || exit 1

# Every function of cufft.h is cuemu's.
library=$builddir_abs/.libs/libcuemu_cufft.so
declared=$(grep -o 'CUFFTAPI *cufft[A-Za-z0-9_]*' "$toolkit/include/cufft.h" |
  awk '{print $2}' | sort -u)
missing=
for f in $declared; do
  nm -D --defined-only "$library" | awk '{print $3}' | grep -qx "$f" ||
    missing="$missing $f"
done
if [ -z "$missing" ]; then
  echo "PASS: the $(echo "$declared" | wc -w) functions of cufft.h are exported by libcuemu_cufft.so"
else
  fail "cufft.h functions not exported:$missing"
fi

# The library a program links: cuemu's, also for NVIDIA's path.
cat >"$work/version.cu" <<'SOURCE'
#include <cstdio>
#include <cufft.h>
int main() {
  int v = 0;
  if (cufftGetVersion(&v) == CUFFT_SUCCESS && v / 1000 == CUFFT_VER_MAJOR)
    std::printf("PASS\n");
  return 0;
}
SOURCE
if "$nvcc" "$work/version.cu" -o "$work/version_cu" \
  "$toolkit/lib64/libcufft.so" >"$work/build.log" 2>&1; then
  if ldd "$work/version_cu" | grep -q libcuemu_cufft.so &&
    ! ldd "$work/version_cu" | grep -q 'libcufft\.so'; then
    echo "PASS: NVIDIA's libcufft.so by its path links cuemu's cuFFT"
  else
    fail "NVIDIA's libcufft.so by its path: $(ldd "$work/version_cu" | grep -i fft)"
  fi
  if "$work/version_cu" | grep -qx PASS; then
    echo "PASS: a program linked through the path runs"
  else
    fail "a program linked through the path: $("$work/version_cu" 2>&1 | head -5)"
  fi
else
  fail "cuemu-nvcc with $toolkit/lib64/libcufft.so: $(head -5 "$work/build.log")"
fi

# The host compiler linking with the cuemu toolkit's lib64 (-lcufft there
# is a linker script naming cuemu's cuFFT).
lib64=$builddir_abs/.libs/cuemu-toolkit/lib64
printf '%s\n' 'int cufftGetVersion(int *);' \
  'int main(void) { int v = 0; return cufftGetVersion(&v) != 0 || v < 12000; }' \
  >"$work/version.c"
if "${CC:-cc}" "$work/version.c" -o "$work/version" -L"$lib64" -lcufft \
  >"$work/cc.log" 2>&1 && "$work/version"; then
  echo "PASS: a host-compiler link with the cuemu toolkit's -lcufft runs"
else
  fail "host-compiler link with -lcufft: $(head -3 "$work/cc.log")"
fi

# cuFFTW (FFTW's interface on cuFFT) is not emulated: refused by name.
printf 'int main() { return 0; }\n' >"$work/main.cu"
if "$nvcc" "$work/main.cu" -o "$work/main" -lcufftw >"$work/refused.log" 2>&1; then
  fail "-lcufftw: the link succeeded"
elif grep -q "libcufftw .* is not emulated" "$work/refused.log"; then
  echo "PASS: -lcufftw is refused: $(grep -m1 'not emulated' "$work/refused.log" | cut -c1-80)..."
else
  fail "-lcufftw: no message naming it: $(head -3 "$work/refused.log")"
fi

# CMake: CUDA::cufft from FindCUDAToolkit on the cuemu toolkit.
if command -v cmake >/dev/null 2>&1; then
  cmake_build=$work/cmake
  if cmake -S "$dir/cmake" -B "$cmake_build" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/cmake.log" 2>&1 &&
    cmake --build "$cmake_build" >>"$work/cmake.log" 2>&1 &&
    "$cmake_build/convolution" | grep -qx PASS; then
    echo "PASS: CMake's CUDA::cufft links cuemu's cuFFT"
  else
    fail "CMake with CUDA::cufft: $(tail -5 "$work/cmake.log")"
  fi
else
  echo "SKIP: CMake: cmake is not installed"
fi

# One program linked with the real toolkit's cuFFT (tests/nvcc_kernels.sh
# compiles every program with nvcc).
NVCC=$(find_nvcc)
if [ -n "$NVCC" ]; then
  if (cd "$dir" && "$NVCC" -arch=sm_90 fft_convolution.cu \
    -o "$work/nv_convolution" -lcufft) >"$work/nv.log" 2>&1; then
    echo "PASS: fft_convolution builds and links with nvcc and NVIDIA's cuFFT"
  else
    fail "fft_convolution with nvcc: $(head -5 "$work/nv.log")"
  fi
else
  echo "SKIP: nvcc build: no nvcc"
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
