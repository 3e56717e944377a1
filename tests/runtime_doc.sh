#!/bin/sh
# runtime_doc.sh: docs/runtime.md's tables of every runtime, driver and
# NVRTC function agree with the code: scripts/runtime_doc.py --check
# regenerates them from the CUDA toolkit's headers and cuemu's shims and
# fails when the committed file differs (run scripts/runtime_doc.py to
# update it). Skipped without python3 or the toolkit's headers.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/test_tools.sh"

command -v python3 >/dev/null 2>&1 || tool_missing runtime_doc.sh "python3 is missing"
include=${CUDA_HOME:-/usr/local/cuda}/include
[ -f "$include/cuda_runtime_api.h" ] ||
  tool_missing runtime_doc.sh "the CUDA toolkit's headers are missing ($include)"
python3 "$srcdir/scripts/runtime_doc.py" --toolkit "$include" --check
