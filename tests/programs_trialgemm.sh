#!/bin/sh
# programs_trialgemm.sh: programs of tests/programs/trialgemm, each reduced
# from a failure of a public GEMM tutorial (SGEMM and tensor-core HGEMM
# kernels) built unmodified with cuemu-nvcc.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialgemm"
