#!/bin/sh
# python.sh: runs the pytest suites of fake_cupy and the cuemu Python package
# (tests/python), then the user-style module (tests/python/user_style),
# written for the real CuPy, unchanged under the plugin with CUEMU_FAKE_CUPY=1,
# and the Python example (examples/python: its program and its parity test),
# each with immediate and with deferred launches.
# Exit 77 (skip) when $PYTHON lacks NumPy or pytest, 1 where CI=true (see
# test_tools.sh).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PYTHON=${PYTHON:-python3}
. "$srcdir/tests/test_tools.sh"
"$PYTHON" -c 'import numpy, pytest' >/dev/null 2>&1 ||
  tool_missing python.sh "$PYTHON lacks NumPy or pytest"
PYTHONPATH="$srcdir/fake_cupy${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
# Keep pytest's files out of the (possibly read-only) source tree.
opts="-q -p no:cacheprovider -p cuemu.pytest_plugin"

# Every suite runs twice: with immediate launches, and with launches queued
# until the next synchronization (CUEMU_ASYNC=deferred, where the lifetime
# checker is on), which must accept the same correct programs.
for async in immediate deferred; do
  echo "python.sh: CUEMU_ASYNC=$async"
  CUEMU_ASYNC=$async "$PYTHON" -m pytest $opts \
    --ignore="$srcdir/tests/python/user_style" "$srcdir/tests/python" || exit 1
  CUEMU_ASYNC=$async CUEMU_FAKE_CUPY=1 "$PYTHON" -m pytest $opts \
    "$srcdir/tests/python/user_style" || exit 1
  CUEMU_ASYNC=$async CUEMU_FAKE_CUPY=1 "$PYTHON" -m pytest $opts \
    "$srcdir/examples/python" || exit 1
  CUEMU_ASYNC=$async "$PYTHON" -m fake_cupy \
    "$srcdir/examples/python/rms_norm.py" || exit 1
done
