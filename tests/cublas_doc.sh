#!/bin/sh
# cublas_doc.sh: docs/cublas.md's table of every cuBLAS function agrees
# with the code: scripts/cublas_doc.py --check regenerates it from the CUDA
# toolkit's cublas_api.h and cublas.h and the symbols the built
# libcuemu_cublas.so exports, and fails when the committed file differs
# (run scripts/cublas_doc.py to update it) or when the library exports a
# cublas* function that no header declares. Skipped without python3, nm or
# the toolkit's headers.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"

command -v python3 >/dev/null 2>&1 || tool_missing cublas_doc.sh "python3 is missing"
command -v nm >/dev/null 2>&1 || tool_missing cublas_doc.sh "nm is missing"
include=${CUDA_HOME:-/usr/local/cuda}/include
[ -f "$include/cublas_api.h" ] ||
  tool_missing cublas_doc.sh "the CUDA toolkit's cublas_api.h is missing ($include)"
library=$builddir/.libs/libcuemu_cublas.so
[ -f "$library" ] || tool_missing cublas_doc.sh "$library is not built"
python3 "$srcdir/scripts/cublas_doc.py" --toolkit "$include" \
  --library "$library" --check
