#!/bin/sh
# programs_ordered.sh: the whole-program tests of stream order beyond
# kernels and copies (stream-ordered allocation and frees, per-thread
# default streams, copies that run in stream order), in
# tests/programs/ordered.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/ordered"
