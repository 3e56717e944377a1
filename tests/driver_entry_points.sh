#!/bin/sh
# driver_entry_points.sh: the driver's entry points (cuGetProcAddress,
# cudaGetDriverEntryPoint) and cudaTypedefs.h list every driver function of
# the shims at the ABI version the CUDA toolkit names:
# scripts/driver_entry_points.py --check regenerates them and fails when the
# committed files differ (run scripts/driver_entry_points.py to update
# them). Skipped without python3 or the toolkit's headers.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/test_tools.sh"

command -v python3 >/dev/null 2>&1 ||
  tool_missing driver_entry_points.sh "python3 is missing"
include=${CUDA_HOME:-/usr/local/cuda}/include
[ -f "$include/cudaTypedefs.h" ] ||
  tool_missing driver_entry_points.sh "the CUDA toolkit's headers are missing ($include)"
python3 "$srcdir/scripts/driver_entry_points.py" --toolkit "$include" --check
