#!/bin/sh
# programs_trialdrv.sh: programs of tests/programs/trialdrv, from a trial
# of driver-API, NVRTC, JIT and virtual-memory programs written the way
# the CUDA samples write theirs: a cluster kernel of a module reading
# other blocks' static shared memory, the driver's names of CUDA 13's
# cuda.h, a driver-only thread without a context, NVRTC kernels with
# printf, atomics, inline PTX, votes and assert, and VMM memory shared
# with child processes started by fork and exec. The Makefile project of the same trial is
# tests/trialdrv_project.sh.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 PROGRAMS_ALONE=vmm_ipc_exec exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialdrv"
