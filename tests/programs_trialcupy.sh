#!/bin/sh
# programs_trialcupy.sh: the pytest module of tests/programs/trialcupy, a
# CuPy user's test suite written for the real CuPy (RawModules read from
# the folder's .cu files, with templates, a macro in a name expression,
# float16/complex64/int8 data and views; ElementwiseKernel,
# ReductionKernel and cupy.fuse over float16 and complex64; streams,
# pinned memory, events, the pool; cupy.testing; the errors a user meets),
# run unchanged with CUEMU_FAKE_CUPY=1 and the cuemu plugin, once with
# immediate launches and once with CUEMU_ASYNC=deferred. The .cu files
# also compile with nvcc (tests/nvcc_kernels.sh). Exit 77 (skip) when
# $PYTHON lacks NumPy or pytest, 1 where CI=true (see test_tools.sh).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PYTHON=${PYTHON:-python3}
. "$srcdir/tests/test_tools.sh"
"$PYTHON" -c 'import numpy, pytest' >/dev/null 2>&1 ||
  tool_missing programs_trialcupy.sh "$PYTHON lacks NumPy or pytest"
PYTHONPATH="$srcdir/fake_cupy${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
for async in immediate deferred; do
  echo "programs_trialcupy.sh: CUEMU_ASYNC=$async"
  CUEMU_ASYNC=$async CUEMU_FAKE_CUPY=1 "$PYTHON" -m pytest -q \
    -p no:cacheprovider -p cuemu.pytest_plugin \
    "$srcdir/tests/programs/trialcupy" || exit 1
done
