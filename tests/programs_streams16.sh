#!/bin/sh
# programs_streams16.sh: the whole-program tests of stream order for the
# calls that once ran when issued (copies with CUDA arrays, stream
# attributes), of stream-ordered allocation points under memcheck, of
# kernels that never end (the watchdog), and of cuDeviceGetP2PAttribute,
# in tests/programs/streams16.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/streams16"
