#!/bin/sh
# programs_vmm.sh: the whole-program tests of the driver's virtual memory
# management (cuMemCreate, cuMemMap, cuMemSetAccess, sharing between
# processes; tests/programs/vmm).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/vmm"
