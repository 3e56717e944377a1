# test_tools.sh: what the test scripts share about the tools they need.
# Sourced, not run, after setting `srcdir`.
#
#   tool_missing TEST WHY...  a tool that set-up installs (clang++, nvcc, gdb,
#                           the aarch64 cross tools, NumPy, ...) or a program
#                           of the build is missing: exits 77 (skipped), with
#                           WHY, on a developer's machine; where CI=true
#                           (set-up has run there) exits 1, since a test that
#                           passes without testing anything hides a broken
#                           set-up.
#   fail WHY...             prints FAIL: WHY and counts it in $failed (the
#                           script sets failed=0 first and exits with it).
#   step NAME COMMAND...    runs COMMAND in $work, its output in NAME.log;
#                           on failure reports it (fail) with the log's head.
#   passes NAME COMMAND...  COMMAND runs in $work and prints a line PASS:
#                           prints PASS: NAME, else reports it with its output.
#   nvcc_build LABEL COMMAND...
#                           runs COMMAND, a build with the real nvcc, unless
#                           tests/nvcc_builds.txt records that this nvcc
#                           built it from exactly these bytes under LABEL
#                           (scripts/nvcc_verified.py: a key over nvcc's
#                           version, the command and the files of the source
#                           tree it names); records it when it succeeds.
#                           LABEL is unique in the suite: SCRIPT:NAME.
#   find_nvcc               prints the nvcc to use: $NVCC when set, else nvcc
#                           on PATH, else the toolkit's (CUDA_HOME, then
#                           /usr/local/cuda), which set-up does not put on
#                           PATH; prints nothing when there is none.

# CUDA_VISIBLE_DEVICES would hide or renumber the emulated devices the
# tests count on (run by hand, outside AM_TESTS_ENVIRONMENT, which unsets
# it too); the tests that want it set it themselves.
unset CUDA_VISIBLE_DEVICES

tool_missing() {
  test_name=$1
  shift
  if [ "${CI:-}" = true ]; then
    echo "$test_name: FAIL: $* (CI=true: set-up installs it, so its absence fails)"
    exit 1
  fi
  echo "$test_name: $*; skipped"
  exit 77
}

fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

step() {
  name=$1
  shift
  if (cd "$work" && "$@") >"$work/$name.log" 2>&1; then
    return 0
  fi
  fail "$name: $*"
  sed 's/^/  | /' "$work/$name.log" | head -40
  return 1
}

passes() {
  name=$1
  shift
  if (cd "$work" && "$@") >"$work/$name.out" 2>&1 &&
    grep -qx PASS "$work/$name.out"; then
    echo "PASS: $name"
  else
    fail "$name: its output:"
    sed 's/^/  | /' "$work/$name.out" | head -20
  fi
}

find_nvcc() {
  for candidate in "${NVCC:-}" nvcc "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" \
    /usr/local/cuda/bin/nvcc; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
}

nvcc_build() {
  label=$1
  shift
  "${PYTHON:-python3}" "$srcdir/scripts/nvcc_verified.py" --srcdir "$srcdir" \
    --nvcc "$(find_nvcc)" ${work:+--work "$work"} build "$label" -- "$@"
}
