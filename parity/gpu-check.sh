#!/bin/sh
# gpu-check.sh: the full parity of the examples on a machine with a CUDA
# device: host vs emulated vs GPU, every case's GPU leg re-run under the four
# compute-sanitizer tools, then the GPU tests of the parity_gpu Check suite,
# then the device math program (tests/programs/devmath/libdevice_bits.cu)
# built by nvcc and run on the GPU: the bits cuemu takes from libdevice
# against the hardware's (docs/device-math.md).
# Writes the result table to parity/GPU-RESULTS.md (or --output FILE).
#
#   parity/gpu-check.sh [--build DIR] [--output FILE] [--limit SECONDS]
#                       [PATH...]
#
# --build DIR   use the cuemu build in DIR (configured from this tree) instead
#               of building one in ${TMPDIR:-/tmp}/cuemu-gpu-check
# --output FILE where the Markdown results go (default parity/GPU-RESULTS.md)
# --limit S     time limit of the parity run in seconds (default 420); the
#               build and the unit tests have their own (300 and 120), so the
#               whole script stays well inside 10 minutes on a 16-core machine
# PATH...       what cuemu-parity runs (default: examples/)
#
# Exit status: 0 when the build, the parity run, the GPU tests and the device
# math program all passed; the parity run's status when it failed; 1
# otherwise. Every run sets CUEMU_REQUIRE_CUDA=1, so a missing device is a
# failure, never a skip.
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=
output=$srcdir/parity/GPU-RESULTS.md
limit=420
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$2; shift 2 ;;
  --build=*) build=${1#--build=}; shift ;;
  --output) output=$2; shift 2 ;;
  --output=*) output=${1#--output=}; shift ;;
  --limit) limit=$2; shift 2 ;;
  --limit=*) limit=${1#--limit=}; shift ;;
  --) shift; break ;;
  -*) echo "gpu-check.sh: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
[ $# -gt 0 ] || set -- "$srcdir/examples"

jobs=$(nproc 2>/dev/null || echo 2)
work=${TMPDIR:-/tmp}/cuemu-gpu-check.$$
mkdir -p "$work" || exit 1
log=$work/parity.log
started=$(date -u '+%Y-%m-%d %H:%M UTC')
CUEMU_REQUIRE_CUDA=1
export CUEMU_REQUIRE_CUDA

say() { echo "gpu-check: $*" >&2; }

# ---- The machine ----------------------------------------------------------
cuda_home=${CUDA_HOME:-/usr/local/cuda}
device="unknown (nvidia-smi not found)"
if command -v nvidia-smi >/dev/null 2>&1; then
  device=$(nvidia-smi --query-gpu=name,driver_version,memory.total \
    --format=csv,noheader 2>&1 | head -n 1)
fi
toolkit="not found"
if [ -x "$cuda_home/bin/nvcc" ]; then
  toolkit=$("$cuda_home/bin/nvcc" --version | sed -n 's/.*release \([^,]*\).*/\1/p')
fi
sanitizer=$(command -v "$cuda_home/bin/compute-sanitizer" ||
  command -v compute-sanitizer || echo "not found")
commit=$(git -C "$srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$srcdir" status --porcelain 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
say "device: $device; CUDA $toolkit; compute-sanitizer: $sanitizer"

# ---- The build --------------------------------------------------------------
build_status=0
if [ -z "$build" ]; then
  build=${TMPDIR:-/tmp}/cuemu-gpu-check
  say "building cuemu in $build ($jobs jobs)"
  mkdir -p "$build"
  # The build gets 300 s; a hung one is stopped rather than waited for. The
  # script in quotes gets its values as arguments, expanded there.
  # shellcheck disable=SC2016
  timeout --kill-after=10 300 sh -ec '
    cd "$1"
    [ -x configure ] || autoreconf -fi
    cd "$2"
    [ -f Makefile ] || "$1/configure" -q
    make -j"$3"' gpu-check "$srcdir" "$build" "$jobs" >"$work/build.log" 2>&1
  build_status=$?
  if [ $build_status -ne 0 ]; then
    say "build failed (exit status $build_status):"
    tail -n 40 "$work/build.log" >&2
  fi
fi
runner=$build/cuemu-parity
build_note=ok
[ $build_status -eq 0 ] || build_note="FAILED (exit status $build_status)"
if [ $build_status -eq 0 ] && [ ! -x "$runner" ]; then
  say "$runner does not exist"
  build_status=1
  build_note="FAILED: no cuemu-parity in the build"
fi

# ---- The parity run ---------------------------------------------------------
parity_status=1
seconds=0
if [ $build_status -eq 0 ]; then
  say "cuemu-parity $* (limit $limit s)"
  begin=$(date +%s)
  timeout --kill-after=10 "$limit" "$runner" \
    --sanitize=memcheck,racecheck,synccheck,initcheck \
    --junit "$work/parity-junit.xml" --jobs "$jobs" "$@" >"$log" 2>&1
  parity_status=$?
  seconds=$(($(date +%s) - begin))
  cat "$log"
  if [ $parity_status -eq 124 ] || [ $parity_status -eq 137 ]; then
    say "cuemu-parity did not finish within $limit s"
  fi
fi

# ---- The GPU tests of the parity_gpu suite -------------------------------
tests_status=1
if [ $build_status -eq 0 ]; then
  say "Check suite parity_gpu with CUEMU_REQUIRE_CUDA=1"
  CUEMU_TEST_SUITE=parity_gpu timeout --kill-after=10 120 \
    make -C "$build" check TESTS=tests/check_parity >"$work/tests.log" 2>&1
  tests_status=$?
  if [ -f "$build/tests/check_parity.log" ]; then
    cp "$build/tests/check_parity.log" "$work/check_parity.log"
  fi
fi

# ---- Device math: libdevice's bits on the GPU ---------------------------------
math_status=1
math_note="not run: no nvcc"
if [ -x "$cuda_home/bin/nvcc" ]; then
  say "device math: tests/programs/devmath/libdevice_bits.cu by nvcc, on the GPU"
  if timeout --kill-after=10 180 "$cuda_home/bin/nvcc" -arch=native \
       -o "$work/libdevice_bits" "$srcdir/tests/programs/devmath/libdevice_bits.cu" \
       >"$work/devmath.log" 2>&1 &&
     timeout --kill-after=10 60 "$work/libdevice_bits" >>"$work/devmath.log" 2>&1; then
    math_status=0
    math_note=passed
  else
    math_note="FAILED (see below)"
  fi
fi

# ---- The results --------------------------------------------------------------
{
  echo "# GPU parity results"
  echo
  echo "Written by \`parity/gpu-check.sh\`; do not edit by hand. Run it again on a"
  echo "machine with a CUDA device to refresh this file."
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| started | $started |"
  echo "| commit | $commit |"
  echo "| device | $device |"
  echo "| CUDA toolkit | $toolkit |"
  echo "| compute-sanitizer | $sanitizer |"
  echo "| command | \`CUEMU_REQUIRE_CUDA=1 cuemu-parity --sanitize=memcheck,racecheck,synccheck,initcheck $(echo "$*" | sed "s|$srcdir/||g")\` |"
  echo "| build | $build_note |"
  echo "| parity run | exit status $parity_status after $seconds s (limit $limit s) |"
  echo "| parity_gpu Check suite | $([ $tests_status -eq 0 ] && echo passed || echo "FAILED (exit status $tests_status)") |"
  echo "| device math (libdevice_bits.cu by nvcc) | $math_note |"
  echo
  echo "## cuemu-parity output"
  echo
  echo '```'
  if [ -f "$log" ]; then
    sed "s|$srcdir/||g" "$log"
  else
    echo "(not run: the build failed)"
  fi
  echo '```'
  echo
  echo "## parity_gpu Check suite"
  echo
  echo '```'
  if [ -f "$work/check_parity.log" ]; then
    grep -E '^[0-9]+%|:[FE]:' "$work/check_parity.log"
  elif [ -f "$work/tests.log" ]; then
    tail -n 20 "$work/tests.log"
  else
    echo "(not run: the build failed)"
  fi
  echo '```'
  echo
  echo "## Device math"
  echo
  echo '```'
  if [ -f "$work/devmath.log" ]; then
    sed "s|$srcdir/||g" "$work/devmath.log"
  else
    echo "($math_note)"
  fi
  echo '```'
} >"$output"
say "results written to $output (logs in $work)"

if [ $build_status -ne 0 ]; then
  exit 1
fi
if [ $parity_status -ne 0 ]; then
  exit $parity_status
fi
[ $tests_status -eq 0 ] || exit 1
[ $math_status -eq 0 ] || exit 1
exit 0
