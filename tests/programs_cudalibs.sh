#!/bin/sh
# cuemu's cuBLAS and cuRAND (tests/programs/cudalibs, docs/cublas.md):
# - builds and runs the folder's programs with cuemu-nvcc (programs.sh;
#   each links -lcublas or -lcurand through its CUEMU_OPTIONS line): GEMM
#   in every form, levels 1 to 3, cuRAND's host API, a host pointer
#   passed as a matrix (cudaErrorIllegalAddress and a message), and the
#   corners of cuBLAS's semantics (cublas_semantics.cu: stream order of
#   device scalars, empty and degenerate sizes, NaN, threads, graphs);
# - checks the Sobol generators without the toolkit's libcurand.so (where
#   cuemu reads NVIDIA's direction vectors): a message and a status;
#   the rest of the API against host references: rotations and ILP64 forms
#   (cublas_rotations.cu), band and packed level 2 (cublas_packed.cu),
#   rank-k updates, hemm, trsmBatched, 3M GEMMs, matinv, QR and least
#   squares (cublas_level3x.cu), the legacy <cublas.h> API
#   (cublas_legacy.cu);
# - checks that the programs link cuemu's libraries, not NVIDIA's, also
#   when NVIDIA's libcublas.so is named by its path;
# - checks that a library of the toolkit that cuemu does not emulate is
#   left out of the link, and named by a note when a program that calls it
#   fails to link: -lnvblas (NVBLAS) and a path to libnvblas.so from
#   cuemu-nvcc; -lnvblas from the host compiler linking with the cuemu
#   toolkit's lib64 is refused by its linker script (cuFFT, cuFFTW,
#   cuSPARSE and cuSOLVER are emulated, tests/programs_cufft.sh,
#   programs_cusparse.sh, programs_cusolver.sh);
# - builds every program with nvcc where there is one (NVIDIA's own
#   libraries), as the same sources must build with the real toolkit.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/library_programs.sh"
# NVIDIA's cublas_v2.h and curand.h are the headers programs include.
# cublas_legacy.cu includes <cublas.h>, which cannot be included with
# <cublas_v2.h>: it builds by itself.
library_setup cublas cuBLAS cublas_v2.h cudalibs cublas_legacy

# The libraries a program links: cuemu's, also for NVIDIA's path.
library_path_link "$dir/cublas_levels.cu" cublas_levels

# A library of the toolkit that cuemu does not emulate is left out of the
# link (tests/driver_unused_library.sh): a program that calls into it
# (here, a function that nothing defines) fails to link with a note naming
# the library.
printf 'extern "C" void cuemu_test_undefined(void);\nint main() { cuemu_test_undefined(); return 0; }\n' >"$work/main.cu"
library_refused libnvblas "$nvcc" "$work/main.cu" -o "$work/main" -lnvblas
library_refused libnvblas "$nvcc" "$work/main.cu" -o "$work/main" \
  "$toolkit/lib64/libnvblas.so"
lib64=$builddir_abs/.libs/cuemu-toolkit/lib64
printf 'int main(void) { return 0; }\n' >"$work/main.c"
library_refused libnvblas "${CC:-cc}" "$work/main.c" -o "$work/main" -L"$lib64" -lnvblas
# Every library that the one table (emulator/compile/cuemu_cuda_libraries.def)
# marks as not emulated is refused both ways: named by cuemu-nvcc's note
# when a link with its -l fails (the table compiled in), and by a lib64
# script (the table read by libs.am). The links are of one object, compiled
# once (the note comes from the link, whatever its inputs).
table=$srcdir/emulator/compile/cuemu_cuda_libraries.def
names=$(sed -n 's/^CUEMU_CUDA_LIBRARY(\([A-Za-z0-9_]*\), .*, 0)$/\1/p' "$table")
count=0
"$nvcc" -c "$work/main.cu" -o "$work/main.o" >"$work/main_o.log" 2>&1 ||
  fail "main.cu did not compile: $(head -3 "$work/main_o.log")"
for l in $names; do
  case $l in *_static) f=lib$l.a ;; *) f=lib$l.so ;; esac
  if ! grep -q "ASSERT(0, \"cuemu: lib$l is not emulated" "$lib64/$f" 2>/dev/null; then
    fail "lib$l: $lib64/$f is not a script refusing it"
  elif "$nvcc" "$work/main.o" -o "$work/main" "-l$l" >"$work/refused.log" 2>&1 ||
    ! grep -q "lib$l .* is not emulated" "$work/refused.log"; then
    fail "-l$l: cuemu-nvcc did not refuse it: $(head -2 "$work/refused.log")"
  else
    count=$((count + 1))
  fi
done
# Every one of them (more than 15: cuFFTW, cuSOLVERMg, NPP, nvJPEG, ...).
total=$(printf '%s\n' "$names" | wc -w)
if [ "$count" -eq "$total" ] && [ "$count" -gt 15 ]; then
  echo "PASS: the $count libraries the table marks as not emulated are refused by cuemu-nvcc and by lib64"
else
  fail "only $count of the table's $total libraries refused both ways"
fi

# CMake: CUDA::cublas (which brings CUDA::cublasLt) and CUDA::curand from
# FindCUDAToolkit on the cuemu toolkit link cuemu's libraries (and
# curand_kernel.h compiles with the toolkit's include folder that they
# bring); CUDA::nppc (NPP) on a target that does not call it is left out.
if command -v cmake >/dev/null 2>&1; then
  cmake_build=$work/cmake
  if cmake -S "$dir/cmake" -B "$cmake_build" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/cmake.log" 2>&1 &&
    cmake --build "$cmake_build" >>"$work/cmake.log" 2>&1 &&
    "$cmake_build/levels" | grep -qx PASS &&
    "$cmake_build/rand" | grep -qx PASS; then
    echo "PASS: CMake's CUDA::cublas and CUDA::curand link cuemu's cuBLAS and cuRAND"
  else
    fail "CMake with CUDA::cublas: $(tail -5 "$work/cmake.log")"
  fi
  # CUDA::nppc on a target that does not call NPP: left out of its link.
  if cmake -S "$dir/cmake" -B "$cmake_build" -DWITH_NPP=ON \
    >>"$work/cmake.log" 2>&1 &&
    cmake --build "$cmake_build" >>"$work/cmake.log" 2>&1 &&
    "$cmake_build/npp" | grep -qx PASS; then
    echo "PASS: CMake's CUDA::nppc on a target that does not call NPP is left out of its link"
  else
    fail "CMake with CUDA::nppc: $(tail -5 "$work/cmake.log")"
  fi
else
  echo "SKIP: CMake: cmake is not installed"
fi

# The Sobol generators without the toolkit's libcurand.so (where cuemu
# reads NVIDIA's direction vectors): a clear message and
# CURAND_STATUS_INITIALIZATION_FAILED, which curand_quasi.cu checks (the
# program that programs.sh built).
if [ -x "$work/programs/curand_quasi" ]; then
  CUEMU_CURAND_LIBRARY=/nonexistent/libcurand.so.10 \
    "$work/programs/curand_quasi" >"$work/quasi.out" 2>&1
  if grep -qx PASS "$work/quasi.out" &&
    grep -q "note: no direction vectors" "$work/quasi.out" &&
    grep -q "cuemu: curandGetDirectionVectors32: cuemu reads cuRAND's tables from the CUDA toolkit's libcurand.so, and CUEMU_CURAND_LIBRARY=/nonexistent/libcurand.so.10 cannot be opened" "$work/quasi.out"; then
    echo "PASS: the Sobol generators without the toolkit's libcurand.so refuse with a message"
  else
    fail "the Sobol generators without libcurand.so: $(head -5 "$work/quasi.out")"
  fi
else
  fail "curand_quasi.cu: programs.sh did not build it"
fi

# The same sources with the real toolkit.
NVCC=$(find_nvcc)
if [ -n "$NVCC" ]; then
  for source in "$dir"/*.cu; do
    name=$(basename "$source" .cu)
    if (cd "$dir" && nvcc_build "programs_cudalibs.sh:$name" "$NVCC" \
      -arch=sm_90 "$name.cu" -o "$work/nv_$name" -lcublas -lcublasLt \
      -lcurand -ldl) >"$work/nv.log" 2>&1; then
      echo "PASS: $name builds with nvcc"
    else
      fail "$name with nvcc: $(head -5 "$work/nv.log")"
    fi
  done
else
  echo "SKIP: nvcc builds: no nvcc"
fi
library_finish
