#!/bin/sh
# cupy_suite.sh: runs CuPy's own test files for the APIs the fake CuPy
# covers (raw kernels, the CUDA array interface, DLPack, streams, memory,
# devices, ElementwiseKernel/ReductionKernel, cupy.fuse, cupyx.jit) against
# fake_cupy installed as `cupy`, and prints the pass figure of each file.
# Not part of `make check`: it needs CuPy's source distribution.
#
#   sh scripts/cupy_suite.sh [SDIST]          (from a built tree)
#
# SDIST is CuPy's source distribution (cupy-13.x.tar.gz) or the folder it
# unpacks to; without it, `pip download 'cupy==13.*' --no-binary :all:
# --no-deps` fetches it (pip prepares its metadata, which takes minutes).
# The tests run with the build tree's libcuemu (env.sh's variables, or
# CUEMU_LIB_DIR) and PYTHONPATH=fake_cupy, through the cuemu pytest plugin
# with CUEMU_FAKE_CUPY=1, as a user would run their own suite. CuPy's
# conftest.py is replaced by an empty one (it only adds pytest-xdist hooks);
# nothing else of CuPy's files is changed. Extra pytest options go in
# CUPY_SUITE_PYTEST_OPTS (say "-x" or "-k name"); CUPY_SUITE_FILES names
# other test files (paths under the sdist's tests/). Each file runs for at
# most CUPY_SUITE_TIMEOUT seconds (default 600); a file stopped by it counts
# the tests it finished (from pytest -v's lines). The kernels compiled are
# kept in CUEMU_CACHE_DIR (default $TMPDIR/cuemu_cupy_suite_cache), so a
# second run is much faster.
srcdir=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/cupy_suite.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

sdist=$1
if [ -z "$sdist" ]; then
  (cd "$work" && "$PYTHON" -m pip download -q 'cupy==13.*' \
     --no-binary :all: --no-deps -d .) || exit 1
  sdist=$(ls "$work"/cupy-*.tar.gz | head -n 1)
fi
if [ -d "$sdist" ]; then
  tests=$sdist/tests
else
  tar xzf "$sdist" -C "$work" || exit 1
  tests=$(ls -d "$work"/cupy-*/tests | head -n 1)
fi
[ -d "$tests" ] || { echo "cupy_suite.sh: no tests/ in $sdist" >&2; exit 1; }

# A copy of the test files only: CuPy's own package must not be importable.
mkdir -p "$work/tests" && cp -R "$tests"/. "$work/tests/" || exit 1
: >"$work/tests/conftest.py"

files=${CUPY_SUITE_FILES:-"
cupy_tests/core_tests/test_raw.py
cupy_tests/core_tests/test_ndarray_cuda_array_interface.py
cupy_tests/core_tests/test_dlpack.py
cupy_tests/core_tests/test_elementwise.py
cupy_tests/core_tests/test_userkernel.py
cupy_tests/core_tests/test_reduction.py
cupy_tests/cuda_tests/test_stream.py
cupy_tests/cuda_tests/test_memory.py
cupy_tests/cuda_tests/test_device.py
cupy_tests/core_tests/fusion_tests/test_example.py
cupy_tests/core_tests/fusion_tests/test_misc.py
cupy_tests/core_tests/fusion_tests/test_reduction.py
cupy_tests/core_tests/fusion_tests/test_kernel_cache.py
cupyx_tests/jit_tests/test_raw.py
"}

# The build tree's libcuemu, shims and headers (as /work/env.sh sets them).
: "${CUEMU_SHIMS_DIR:=$srcdir/shims/cuda_builtins}"
: "${CUEMU_INCLUDE_DIR:=$srcdir/emulator/include}"
: "${CUEMU_LIB_DIR:=$srcdir/.libs}"
: "${CUEMU_CACHE_DIR:=${TMPDIR:-/tmp}/cuemu_cupy_suite_cache}"
: "${CUEMU_QUIET:=1}"
export CUEMU_SHIMS_DIR CUEMU_INCLUDE_DIR CUEMU_LIB_DIR CUEMU_CACHE_DIR CUEMU_QUIET
PYTHONPATH="$srcdir/fake_cupy${PYTHONPATH:+:$PYTHONPATH}"
# fastrlock is one of CuPy's own dependencies, which test_memory.py imports.
if ! "$PYTHON" -c 'import fastrlock' >/dev/null 2>&1; then
  "$PYTHON" -m pip install -q --target "$work/deps" fastrlock >/dev/null 2>&1 &&
    PYTHONPATH="$PYTHONPATH:$work/deps"
fi
CUEMU_FAKE_CUPY=1
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH CUEMU_FAKE_CUPY PYTHONDONTWRITEBYTECODE

total_pass=0
total_all=0
for f in $files; do
  name=$(echo "$f" | tr / _)
  (cd "$work/tests" && timeout "${CUPY_SUITE_TIMEOUT:-600}" \
     "$PYTHON" -m pytest -v -p no:cacheprovider \
     -p cuemu.pytest_plugin $CUPY_SUITE_PYTEST_OPTS \
     --junitxml="$work/$name.xml" "$f" >"$work/$name.log" 2>&1)
  line=$("$PYTHON" - "$work/$name.xml" "$f" "$work/$name.log" <<'EOF'
import re
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    # Stopped (timeout, crash): count pytest -v's result lines.
    with open(sys.argv[3], errors="replace") as f:
        words = re.findall(r"::\S+ (PASSED|FAILED|ERROR|SKIPPED)", f.read())
    passed = words.count("PASSED")
    ran = passed + words.count("FAILED") + words.count("ERROR")
    print("%d %d %s: %d of %d pass (stopped before the end: timeout, "
          "crash or collection error)" % (passed, ran, sys.argv[2], passed,
                                          ran))
    sys.exit()
counts = {"passed": 0, "failed": 0, "skipped": 0}
for case in root.iter("testcase"):
    kind = "passed"
    for child in case:
        if child.tag in ("failure", "error"):
            kind = "failed"
        elif child.tag == "skipped":
            kind = "skipped"
    counts[kind] += 1
ran = counts["passed"] + counts["failed"]
print("%d %d %s: %d of %d pass (%d skipped)"
      % (counts["passed"], ran, sys.argv[2], counts["passed"], ran,
         counts["skipped"]))
EOF
)
  set -- $line
  total_pass=$((total_pass + $1))
  total_all=$((total_all + $2))
  shift 2
  echo "$*"
  if [ -n "$CUPY_SUITE_KEEP" ]; then
    mkdir -p "$CUPY_SUITE_KEEP" && cp "$work/$name.log" "$CUPY_SUITE_KEEP/"
  fi
done
echo "cupy_suite.sh: $total_pass of $total_all tests pass"
