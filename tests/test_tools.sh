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
#   find_nvcc               prints the nvcc to use: $NVCC when set, else nvcc
#                           on PATH, else the toolkit's (CUDA_HOME, then
#                           /usr/local/cuda), which set-up does not put on
#                           PATH; prints nothing when there is none.

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

find_nvcc() {
  for candidate in "${NVCC:-}" nvcc "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" \
    /usr/local/cuda/bin/nvcc; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
}
