#!/bin/sh
# programs_tma_cccl.sh: the tensor copies (TMA) through libcu++'s cuda::ptx
# and cuda::device::experimental wrappers (tests/programs/tma_cccl; apart
# from programs_tma.sh, since CCCL's headers make each build long).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/tma_cccl"
