#!/bin/sh
# Kernels' math functions give libdevice's bits (tests/programs/devmath,
# docs/device-math.md); skipped where cuemu was built without libdevice.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
if ! grep -q '^#define CUEMU_HAVE_LIBDEVICE 1' "$builddir/config.h" 2>/dev/null; then
  echo "SKIP: cuemu was built without libdevice (no CUDA toolkit or LLVM tools)"
  exit 77
fi
exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/devmath"
