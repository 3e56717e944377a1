#!/bin/sh
# programs_graphs16.sh: stream-ordered launches of graphs with memory nodes, launches of one executable graph on several streams, capture under per-thread default streams (tests/programs/graphs16).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/graphs16"
