#!/bin/sh
# programs_trialbugs.sh: the bugs people make in CUDA code, found as
# compute-sanitizer would find them. tests/programs/trialbugs/faults.cu
# (kernels in a header, templates, device functions) is built once with
# `cuemu-nvcc --check=all`; run without arguments it runs every fixed form
# and must print PASS with no checker report; each case then runs one bug,
# whose report must name the kernel's thread and the line marked
# `// @NAME` in faults_kernels.cuh:
#   float4         a float4 view one float into an array: misaligned, even
#                  though g++ splits the copy into four aligned loads
#                  (the alignment pass runs in memcheck builds too)
#   heap           a double free on the device heap, whose malloc/free pair
#                  g++ deleted at -O2, last in the kernel (a tail call)
#   recursion      a recursion as deep as its input: the stack overflow
#                  names where the stack ran out
#   divergent      a barrier in warp 0's branch while the other warps spin
#                  on a shared flag: reported as no progress, not a hang
#   volatile_flag  correct (checkers off): warps poll a shared flag through
#                  a volatile pointer; this hung (the polling warps stepped
#                  in lockstep among themselves forever)
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
cc=$builddir/cuemu-nvcc
[ -x "$cc" ] || tool_missing programs_trialbugs.sh "$cc is not built"
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")
dir=$srcdir/tests/programs/trialbugs
work=$builddir/tests/tmp/programs_trialbugs.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0

# line NAME: the line of faults_kernels.cuh marked // @NAME.
line() {
  grep -n "// @$1\$" "$dir/faults_kernels.cuh" | cut -d: -f1
}

# bug CASE LINE WORDS...: the report of ./faults CASE names
# faults_kernels.cuh:LINE and holds every word (the kernel, the threads).
bug() {
  case_name=$1
  want_line=$2
  shift 2
  (cd "$work" && env CUEMU_QUIET=0 CUEMU_WORKERS=1 CUEMU_SPIN_TIMEOUT=1 \
    timeout 60 ./faults "$case_name") >"$work/$case_name.out" 2>&1
  problems=
  grep -qx PASS "$work/$case_name.out" && problems="$problems; it passed"
  grep -qF "faults_kernels.cuh:$want_line" "$work/$case_name.out" ||
    problems="$problems; line $want_line not named"
  for word in "$@"; do
    grep -qF -- "$word" "$work/$case_name.out" ||
      problems="$problems; no '$word'"
  done
  if [ -z "$problems" ]; then
    echo "PASS: $case_name is reported at faults_kernels.cuh:$want_line"
  else
    fail "$case_name:${problems#;}; its output:"
    sed 's/^/  | /' "$work/$case_name.out" | head -20
  fi
}

if step build "$cc" --check=all "$dir/faults.cu" -o faults; then
  (cd "$work" && env CUEMU_QUIET=0 timeout 60 ./faults) >"$work/fixed.out" 2>&1
  if grep -qx PASS "$work/fixed.out" &&
    ! grep -qE "(racecheck|memcheck|initcheck|synccheck): " "$work/fixed.out"; then
    echo "PASS: the fixed forms run clean under --check=all"
  else
    fail "the fixed forms under --check=all:"
    sed 's/^/  | /' "$work/fixed.out" | head -20
  fi
  bug float4 "$(line vec_load)" "misaligned address" "float4 load" "multiple of 16" \
    "thread (0,0,0) of block (0,0,0)"
  bug shared_header "$(line shared_header)" "misaligned address" "int store" \
    "multiple of 4" "kernel faults::pack_header" "thread (0,0,0) of block (0,0,0)"
  bug heap "$(line heap_second_free)" "double free" \
    "kernel faults::one_node_lists" "thread (0,0,0) of block (0,0,0)"
  bug recursion "$(line recursion)" "overflowed its" \
    "kernel faults::walk" "thread (0,0,0) of block (0,0,0)"
  bug divergent "$(line divergent_barrier)" "made no progress" \
    "kernel faults::publish" "threads (0,0,0)..(31,0,0)"
  passes volatile_flag env CUEMU_CHECK=none timeout 60 ./faults volatile_flag
fi
[ "$failed" -eq 0 ]
