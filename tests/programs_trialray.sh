#!/bin/sh
# programs_trialray.sh: programs of tests/programs/trialray, each reduced
# from a failure of a public ray tracer or simulation ("Ray Tracing in One
# Weekend" ports: classes with virtual functions made by device `new`,
# cuRAND per pixel, out-of-class definitions) built unmodified with
# cuemu-nvcc.
PROGRAMS_COMBINE=1 PROGRAMS_ALONE=initializer_device_calls exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialray"
