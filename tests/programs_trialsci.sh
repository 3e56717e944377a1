#!/bin/sh
# programs_trialsci.sh: programs of tests/programs/trialsci, each reduced
# from (or kept whole from) a trial of scientific codes written the way
# domain scientists write them (C-style CUDA, double precision, cuRAND's
# device API, complex arithmetic, atomics on floats and doubles), built
# with cuemu-nvcc. Then the Makefile project tests/programs/trialsci/
# c_driver, as such codes build: a C driver compiled by gcc with
# -I$(CUDA_HOME)/include, which includes <cuda_runtime.h>, kernels compiled
# by $(CUDA_HOME)/bin/nvcc, the whole linked by gcc with -L$(CUDA_HOME)/lib64
# -lcudart, with CUDA_HOME naming cuemu-toolkit as the README says (the C
# file gets the C view of cuemu's cuda_runtime.h). With nvcc present,
# the project also builds with it. Last, a program linked with OpenMP
# (omp_wait/omp_kernels.cu) must find libgomp's idle threads passive
# (emulator/core/cuemu_omp_wait.c), unless its environment sets the policy.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialsci"
status=$?

builddir=$(cd "$builddir" && pwd)
toolkit=$builddir/.libs/cuemu-toolkit
work=$builddir/tests/tmp/programs_trialsci.$$
failed=0
if command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1; then
  mkdir -p "$work/cuemu" || exit 1
  cp "$srcdir"/tests/programs/trialsci/c_driver/* "$work/cuemu/" || exit 1
  step c-driver make -C cuemu "CUDA_HOME=$toolkit" &&
    passes "a C driver with <cuda_runtime.h>, built by gcc with CUDA_HOME=cuemu-toolkit" \
      env CUEMU_QUIET=1 ./cuemu/jacobi
  real=$(find_nvcc 2>/dev/null)
  if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
    mkdir -p "$work/nvcc" &&
      step c-driver-nvcc nvcc_build programs_trialsci.sh:c_driver sh -c \
        'cp "$1"/* nvcc/ && make -C nvcc "CUDA_HOME=$2"' sh \
        "$srcdir/tests/programs/trialsci/c_driver" \
        "$(dirname "$(dirname "$real")")" &&
      echo "PASS: nvcc builds the C driver project"
  fi
else
  echo "programs_trialsci.sh: no make or gcc: the C driver project is skipped"
fi
# A program linked with OpenMP: libgomp's idle threads do not spin (its
# spin count is 0, the passive policy's) unless the environment asks.
mkdir -p "$work" || exit 1
omp_src=$srcdir/tests/programs/trialsci/omp_wait/omp_kernels.cu
if step omp-build "$builddir/cuemu-nvcc" -O2 -Xcompiler -fopenmp "$omp_src" \
  -o omp_kernels; then
  if (cd "$work" && env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT \
    OMP_DISPLAY_ENV=verbose CUEMU_QUIET=1 ./omp_kernels) >"$work/omp.out" 2>&1 &&
    grep -qx PASS "$work/omp.out" &&
    grep -q "GOMP_SPINCOUNT = '0'" "$work/omp.out"; then
    echo "PASS: a program with OpenMP: libgomp's idle threads wait passively"
  else
    fail "a program with OpenMP: $(grep -e SPINCOUNT -e PASS -e FAIL "$work/omp.out")"
  fi
  # The same object linked by the host compiler with -fopenmp and
  # cuemu-toolkit's -lcudart. That library is a filter library, which the
  # program names where -lcudart stands, before the driver's -lgomp, so
  # libgomp starts first and keeps its default (the program still runs);
  # -lgomp named before -lcudart starts libcuemu first
  # (emulator/core/cuemu_omp_wait.c, README).
  if step omp-object "$builddir/cuemu-nvcc" -O2 -Xcompiler -fopenmp -c \
    "$omp_src" -o omp_kernels.o &&
    step omp-gxx-default "${CXX:-g++}" -fopenmp omp_kernels.o -o omp_gxx_default \
      "-L$toolkit/lib64" -lcudart &&
    (cd "$work" && CUEMU_QUIET=1 ./omp_gxx_default) >"$work/omp_gxx_default.out" 2>&1 &&
    grep -qx PASS "$work/omp_gxx_default.out" &&
    step omp-gxx-link "${CXX:-g++}" -fopenmp omp_kernels.o -o omp_gxx \
      -lgomp "-L$toolkit/lib64" -lcudart; then
    if (cd "$work" && env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT \
      OMP_DISPLAY_ENV=verbose CUEMU_QUIET=1 ./omp_gxx) >"$work/omp_gxx.out" 2>&1 &&
      grep -qx PASS "$work/omp_gxx.out" &&
      grep -q "GOMP_SPINCOUNT = '0'" "$work/omp_gxx.out"; then
      echo "PASS: linked by the host compiler with -lgomp -lcudart: idle threads wait passively"
    else
      fail "linked by g++ -fopenmp -lgomp -lcudart: $(grep -e SPINCOUNT -e PASS -e FAIL "$work/omp_gxx.out")"
    fi
  fi
  if (cd "$work" && env -u GOMP_SPINCOUNT OMP_WAIT_POLICY=active \
    OMP_DISPLAY_ENV=verbose CUEMU_QUIET=1 ./omp_kernels) >"$work/omp_active.out" 2>&1 &&
    grep -q "OMP_WAIT_POLICY = 'ACTIVE'" "$work/omp_active.out"; then
    echo "PASS: OMP_WAIT_POLICY=active in the environment is kept"
  else
    fail "OMP_WAIT_POLICY=active: $(grep -e POLICY -e SPINCOUNT "$work/omp_active.out")"
  fi
fi
# A unit that includes CUB (compiled by clang++) with OpenMP loops and
# --coverage, compiled with -c and linked apart by g++, as the benchmark
# collections' Makefiles build: the link names LLVM's OpenMP and profile
# runtimes, which the object calls (emulator/compile/cuemu_clang_runtimes.c).
# GCOV_PREFIX keeps the counters' files in the work folder.
cub_src=$srcdir/tests/programs/trialsci/omp_wait/omp_cub.cu
if step omp-cub-object "$builddir/cuemu-nvcc" -std=c++17 \
  -Xcompiler -fopenmp -Xcompiler --coverage -c "$cub_src" -o omp_cub.o &&
  step omp-cub-link "$builddir/cuemu-nvcc" -Xcompiler -fopenmp \
    -Xcompiler --coverage omp_cub.o -o omp_cub; then
  passes "a CUB unit with OpenMP and --coverage, compiled with -c and linked apart" \
    env CUEMU_QUIET=1 "GCOV_PREFIX=$work/gcov" ./omp_cub
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
