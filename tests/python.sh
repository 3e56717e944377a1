#!/bin/sh
# python.sh: runs the pytest suites of fake_cupy and the cuemu Python package
# (tests/python), then the user-style module (tests/python/user_style),
# written for the real CuPy, unchanged under the plugin with CUEMU_FAKE_CUPY=1,
# and the Python example (examples/python: its program and its parity test),
# each with immediate and with deferred launches; the user-style module runs
# first under pytest-xdist (`-n 2`, two processes compiling into one fresh
# cache), whose outcomes must be those of the serial run, test by test; the
# serial runs of that module then use the cache that the two processes
# filled (each of its entries is found and loaded, not compiled again).
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
work=${CUEMU_BUILDDIR:-.}/tests/tmp/python.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# pytest-xdist (scripts/setup.sh installs it): the same outcomes as the
# serial run, with the compile cache shared by the worker processes.
"$PYTHON" -c 'import xdist' >/dev/null 2>&1 ||
  tool_missing python.sh "$PYTHON lacks pytest-xdist"
echo "python.sh: pytest -n 2"
mkdir -p "$work/cache"
CUEMU_CACHE_DIR=$work/cache CUEMU_FAKE_CUPY=1 "$PYTHON" -m pytest $opts -n 2 \
  --junitxml="$work/xdist.xml" "$srcdir/tests/python/user_style" || exit 1

# Every suite runs twice: with immediate launches, and with launches queued
# until the next synchronization (CUEMU_ASYNC=deferred, where the lifetime
# checker is on), which must accept the same correct programs. Both runs of
# a suite use the same pytest folder (--basetemp), so that a test's files
# (a module's relative includes, a header folder given with -I) have the
# same paths in both, and the second run finds the first run's compiles in
# the cache instead of compiling them again under a new pytest-N folder.
# The deferred run of tests/python keeps only the tests that the immediate
# run saw start a kernel or a process (tests/python/conftest.py).
for async in immediate deferred; do
  echo "python.sh: CUEMU_ASYNC=$async"
  case $async in
  immediate) launches="CUEMU_TEST_LAUNCHES_OUT=$work/launching" ;;
  *) launches="CUEMU_TEST_LAUNCHES_IN=$work/launching" ;;
  esac
  env "$launches" CUEMU_ASYNC=$async "$PYTHON" -m pytest $opts \
    --basetemp="$work/tmp.python" \
    --ignore="$srcdir/tests/python/user_style" "$srcdir/tests/python" || exit 1
  CUEMU_CACHE_DIR=$work/cache CUEMU_ASYNC=$async CUEMU_FAKE_CUPY=1 \
    "$PYTHON" -m pytest $opts --junitxml="$work/serial.$async.xml" \
    --basetemp="$work/tmp.user_style" \
    "$srcdir/tests/python/user_style" || exit 1
  CUEMU_ASYNC=$async CUEMU_FAKE_CUPY=1 "$PYTHON" -m pytest $opts \
    --basetemp="$work/tmp.examples" "$srcdir/examples/python" || exit 1
  CUEMU_ASYNC=$async "$PYTHON" -m fake_cupy \
    "$srcdir/examples/python/rms_norm.py" || exit 1
done

"$PYTHON" - "$work/serial.immediate.xml" "$work/xdist.xml" <<'EOF' || exit 1
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    result = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        kind = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                kind = child.tag
        result[case.get("classname") + "::" + case.get("name")] = kind
    return result


serial, parallel = outcomes(sys.argv[1]), outcomes(sys.argv[2])
if serial != parallel or not serial:
    for name in sorted(set(serial) | set(parallel)):
        if serial.get(name) != parallel.get(name):
            print("python.sh: %s: serial %s, pytest -n 2 %s"
                  % (name, serial.get(name), parallel.get(name)))
    sys.exit("python.sh: pytest -n 2 differs from the serial run")
print("python.sh: pytest -n 2: the %d outcomes of the serial run"
      % len(serial))
EOF
