#!/bin/sh
# programs_devside.sh: the whole programs of the device side's remainder
# (sub-byte tensor-core fragments, the cluster split barrier, cluster
# kernels launched from kernel code, the device runtime's limits, the
# device heap under the checkers and NVRTC, the address-space predicates).
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/devside"
