#!/bin/sh
# trialdrv_project.sh: the Makefile project tests/programs/trialdrv/
# modules_project, from the trial of driver-API programs
# (tests/programs_trialdrv.sh), built as such projects build: kernels made
# into -fatbin, -cubin and -ptx files by $(NVCC) and loaded with
# cuModuleLoad or cuLibraryLoadFromFile, C++ hosts built by $(NVCC) with
# -lcuda (texture objects, VMM memory striped over three devices,
# cuLaunchKernelEx attributes, contexts across threads), and a C99 host
# built by gcc with -I$(CUDA_HOME)/include -lcuda, with NVCC=cuemu-nvcc
# and CUDA_HOME naming cuemu-toolkit. With nvcc present (and
# CUEMU_SKIP_NVCC unset), the project also builds with it.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 ||
  tool_missing trialdrv_project.sh "no make or gcc"

builddir=$(cd "$builddir" && pwd)
toolkit=$builddir/.libs/cuemu-toolkit
work=$builddir/tests/tmp/trialdrv_project.$$
project=$srcdir/tests/programs/trialdrv/modules_project
failed=0
mkdir -p "$work/cuemu" || exit 1
cp "$project"/* "$work/cuemu/" || exit 1
if step modules-project make -C cuemu "NVCC=$builddir/cuemu-nvcc" \
  "CUDA_HOME=$toolkit" CC=gcc; then
  for program in vector_add_drv launch_ex ctx_threads histogram texture_drv; do
    passes "$program" env CUEMU_QUIET=1 sh -c "cd cuemu && ./$program"
  done
  # Memory striped over three emulated devices.
  passes vector_add_mmap env CUEMU_QUIET=1 CUEMU_DEVICE=count=3 \
    sh -c "cd cuemu && ./vector_add_mmap"
fi
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  # The project's folder is a word of the recorded step, whose key then
  # holds its files (scripts/nvcc_verified.py).
  mkdir -p "$work/nvcc" &&
    step modules-project-nvcc nvcc_build trialdrv_project.sh:project sh -c \
      'cp "$1"/* nvcc/ && make -C nvcc "NVCC=$2" "CUDA_HOME=$3" CC=gcc' sh \
      "$project" "$real" "$(dirname "$(dirname "$real")")" &&
    echo "PASS: nvcc builds the driver-API project"
fi
rm -rf "$work"
[ "$failed" -eq 0 ]
