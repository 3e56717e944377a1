#!/bin/sh
# programs_trialrod.sh: programs of tests/programs/trialrod, each reduced
# from a failure of an academic benchmark suite (Rodinia, Parboil and SHOC
# style: shared make.config, kernels #included from *_kernel.cu, C drivers
# compiled by gcc) built unmodified with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialrod"
