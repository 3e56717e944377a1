#!/bin/sh
# programs_drv16b.sh: programs of tests/programs/drv16b, the remainders of
# issue 16 (schedule perturbation and __device__ variables, context events,
# context destruction, green contexts, graph update, driver calls), built
# with cuemu-nvcc; each checks itself against CUDA's documented behaviour.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/drv16b"
