#!/bin/sh
# programs_trialllm.sh: the whole-program tests reduced from public CUDA
# programs (llm.c's dev/cuda kernels, GPU MODE lectures, GEMM and attention
# tutorials) built unmodified with cuemu-nvcc (tests/programs/trialllm).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialllm"
