#!/bin/sh
# programs_hostapi.sh: the whole-program tests of the host API around
# kernels (stream-ordered memory, unified memory, limits, launch attributes,
# properties), in tests/programs/hostapi. launch_before_main is built alone:
# its global object launches kernels when any program of a combined build
# starts; heap_at_main too: it checks the heap its own main finds.
PROGRAMS_COMBINE=1 PROGRAMS_ALONE="limits_stack_printf launch_before_main heap_at_main" exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/hostapi"
