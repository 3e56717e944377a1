#!/bin/sh
# programs_trialdrv.sh: programs of tests/programs/trialdrv, from a trial
# of driver-API, NVRTC, JIT and virtual-memory programs written the way
# the CUDA samples write theirs: a cluster kernel of a module reading
# other blocks' static shared memory, the driver's names of CUDA 13's
# cuda.h, a driver-only thread without a context, NVRTC kernels with
# printf, atomics, inline PTX, votes and assert, driver entry points by
# version, a growable VMM vector, and VMM memory shared with exec'ed child
# processes. Then the Makefile project tests/programs/trialdrv/
# modules_project, built as such projects build: kernels made into
# -fatbin, -cubin and -ptx files by $(NVCC) and loaded with cuModuleLoad,
# C++ hosts built by $(NVCC) with -lcuda, and a C99 host built by gcc with
# -I$(CUDA_HOME)/include -lcuda, with NVCC=cuemu-nvcc and CUDA_HOME naming
# cuemu-toolkit. With nvcc present, the project also builds with it.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialdrv"
status=$?

builddir=$(cd "$builddir" && pwd)
toolkit=$builddir/.libs/cuemu-toolkit
work=$builddir/tests/tmp/programs_trialdrv.$$
project=$srcdir/tests/programs/trialdrv/modules_project
failed=0
if command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1; then
  mkdir -p "$work/cuemu" || exit 1
  cp "$project"/* "$work/cuemu/" || exit 1
  if step modules-project make -C cuemu "NVCC=$builddir/cuemu-nvcc" \
    "CUDA_HOME=$toolkit" CC=gcc; then
    for program in vector_add_drv launch_ex ctx_threads histogram; do
      passes "$program" env CUEMU_QUIET=1 sh -c "cd cuemu && ./$program"
    done
  fi
  real=$(find_nvcc 2>/dev/null)
  if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
    mkdir -p "$work/nvcc" && cp "$project"/* "$work/nvcc/" &&
      step modules-project-nvcc make -C nvcc "NVCC=$real" \
        "CUDA_HOME=$(dirname "$(dirname "$real")")" CC=gcc &&
      echo "PASS: nvcc builds the driver-API project"
  fi
else
  echo "programs_trialdrv.sh: no make or gcc: the driver-API project is skipped"
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
