#!/bin/sh
# programs_trialpoly.sh: a trial of two benchmark suites' styles, each built
# unmodified by its own Makefiles pointed at cuemu:
# - polybench: PolyBench/GPU-style kernels, one folder each (2mm, fdtd-2d)
#   with a shared common.mk, a polybench.c compiled as C by the same nvcc
#   command (or included by the .cu), DATA_TYPE and dataset sizes chosen
#   by -D (a quoted string too), an rdtsc timer in C, POLYBENCH_2D arrays,
#   several kernels launched in host loops, a percent-difference check
#   against the CPU; `make NVCC=cuemu-nvcc`;
# - parboil: Parboil-style benchmarks (spmv in JDS form, a 7-point
#   stencil, mri-q whose main.cu includes computeQ.cu and fills constant
#   memory chunk by chunk) with a C harness library (pb_ReadParameters, timer
#   sets, cudaEvent timing in C), .c files by the C compiler, .cc by the
#   C++ compiler, linked by g++ against cuemu-toolkit's -lcudart or by
#   nvcc, text and binary datasets compared with reference outputs;
#   `make NVCC=cuemu-nvcc CUDA_PATH=<cuemu-toolkit>`;
# - bfs: Parboil-style BFS whose one persistent kernel meets at a grid
#   barrier of atomics on `__device__ volatile int` counters;
# - volatile_device_vars.cu (by programs.sh): volatile __device__ and
#   __managed__ variables, their symbols copied, spun on;
# - host_macros: nvcc's macros in the .c and .cpp files of its command
#   line (__NVCC__, __CUDACC_VER_*__, __CUDA_API_VER_*__; no __CUDACC__);
# - checked_object: a kernel compiled alone with --check=mem -c and linked
#   by g++ (or by cuemu-nvcc without --check), as such Makefiles link:
#   memcheck still reports its write past the end.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"

sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialpoly"
status=$?

builddir=$(cd "$builddir" && pwd)
toolkit=$builddir/.libs/cuemu-toolkit
nvcc=$builddir/cuemu-nvcc
work=$builddir/tests/tmp/programs_trialpoly.$$
failed=0
command -v make >/dev/null 2>&1 || tool_missing programs_trialpoly.sh "make is missing"
[ -x "$nvcc" ] || tool_missing programs_trialpoly.sh "$nvcc is not built"
mkdir -p "$work" || exit 1
cp -R "$srcdir"/tests/programs/trialpoly/polybench \
  "$srcdir"/tests/programs/trialpoly/parboil \
  "$srcdir"/tests/programs/trialpoly/checked_object \
  "$srcdir"/tests/programs/trialpoly/host_macros "$work/" || exit 1
chmod -R u+w "$work"

if step polybench-make make -C polybench "NVCC=$nvcc"; then
  for k in 2mm:2mm fdtd-2d:fdtd2d; do
    passes "polybench ${k%%:*}: its kernels in host loops against the CPU" \
      sh -c "cd polybench/${k%%:*} && CUEMU_QUIET=1 ./${k#*:}.exe"
  done
fi

for b in spmv stencil mri-q bfs; do
  passes "parboil $b: its own Makefile (gcc, g++, cuemu-nvcc), datasets and reference" \
    env CUEMU_QUIET=1 "PARBOIL_MAKEFLAGS=NVCC=$nvcc CUDA_PATH=$toolkit CC=gcc CXX=g++" \
    ./parboil/parboil run "$b"
done

step host-macros-build sh -c "cd host_macros && '$nvcc' main.cu host_macros.c host_macros.cpp -o host_macros" &&
  passes "host_macros: nvcc's macros in .c and .cpp files" ./host_macros/host_macros

# checked_any NAME: the program NAME of checked_object reported the write.
checked_any() {
  if (cd "$work/checked_object" && env CUEMU_QUIET=0 CUEMU_WORKERS=1 ./"$1") \
      >"$work/$1.out" 2>&1 ||
      true; grep -q "memcheck: " "$work/$1.out" &&
      grep -q "oob_kernel.cu:12" "$work/$1.out"; then
    echo "PASS: checked_object: $2"
  else
    fail "checked_object: $2: no memcheck report of oob_kernel.cu:12; its output:"
    cat "$work/$1.out"
  fi
}
if step checked-compile sh -c "cd checked_object && '$nvcc' --check=mem -c oob_kernel.cu -o oob_kernel.o"; then
  step checked-gxx sh -c "cd checked_object && g++ main.cc oob_kernel.o -o via_gxx -L'$toolkit/lib64' -lcudart" &&
    checked_any via_gxx "a --check=mem object linked by g++ -lcudart"
  step checked-nvcc sh -c "cd checked_object && '$nvcc' main.cc oob_kernel.o -o via_nvcc" &&
    checked_any via_nvcc "a --check=mem object linked by cuemu-nvcc without --check"
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
