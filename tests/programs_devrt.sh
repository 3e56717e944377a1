#!/bin/sh
# programs_devrt.sh: the whole programs of the device runtime (launches from
# kernel code, the device heap, tensor-core fragments, clusters).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/devrt"
