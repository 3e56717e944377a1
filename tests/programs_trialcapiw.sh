#!/bin/sh
# programs_trialcapiw.sh: programs of tests/programs/trialcapiw, each reduced
# from a failure of the API-module examples of cuda-api-wrappers (newer
# versions, with NVRTC modules, kernel enumeration and graphs) reproduced
# with the driver and runtime calls the wrappers make.
PROGRAMS_COMBINE=1 PROGRAMS_ALONE=kernel_names_mangled exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcapiw"
