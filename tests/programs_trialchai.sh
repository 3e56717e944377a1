#!/bin/sh
# programs_trialchai.sh: the programs of tests/programs/trialchai, from a
# trial of Chai-style collaborative CPU-GPU programs (managed memory shared
# by a running kernel and host threads; atomicAdd_system and system-scope
# cuda::atomic_ref counters that both take work from; flags both ways while
# the kernel runs, __managed__ ones too; cuda::atomic wait/notify and
# binary_semaphore across host and device; zero-copy mapped memory; a CPU-GPU
# pipeline with cudaLaunchHostFunc and cudaStreamAddCallback), with the
# trial's graph programs in tests/programs_trialgraph.sh; built with
# cuemu-nvcc as one combined program and run.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialchai"
