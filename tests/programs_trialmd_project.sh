#!/bin/sh
# programs_trialmd_project.sh: the CMake project tests/programs/trialmd/
# project, the separately compiled part of a trial of molecular-dynamics
# code: a static library with CUDA_SEPARABLE_COMPILATION whose extern
# __device__ functions and extern __constant__ table the kernels of three
# programs use (bonded forces in struct-of-arrays lists with
# cooperative-groups tiles of 16; velocity Verlet on a stream with a host
# .cpp reference; Langevin dynamics replayed from a captured CUDA graph),
# compile options in generator expressions. Configured with
# CMAKE_CUDA_COMPILER=cuemu-nvcc and the one architecture 90 (the project's
# own default, "80;90", compiles every file's device code twice: the trial
# ran it so), built and run by ctest.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
[ -x "$builddir_abs/cuemu-nvcc" ] ||
  tool_missing programs_trialmd_project.sh "cuemu-nvcc is not built"
command -v cmake >/dev/null 2>&1 ||
  tool_missing programs_trialmd_project.sh "cmake is not installed (scripts/setup.sh installs it)"
p=$srcdir/tests/programs/trialmd/project
work=$builddir_abs/tests/tmp/programs_trialmd_project.$$
mkdir -p "$work" || exit 1
failed=0

step configure cmake -S "$p" -B build -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="$builddir_abs/cuemu-nvcc" &&
  step build cmake --build build &&
  step ctest ctest --test-dir build --output-on-failure &&
  echo "PASS: separable library, extern __device__ and __constant__ across files, a host .cpp, a captured graph"

rm -rf "$work"
echo "programs_trialmd_project.sh: $failed failed"
[ "$failed" -eq 0 ]
