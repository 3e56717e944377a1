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
#   combine_programs OUT SOURCE...
#                           writes OUT, one .cu file that builds the whole
#                           programs SOURCE... into one program, so that a
#                           test that runs them compiles once: each program
#                           in a namespace of its own, its main renamed; the
#                           program runs the main of the one that its first
#                           argument names (its file name without .cu), with
#                           the arguments after that one. The system headers
#                           that they and their own headers include come
#                           first, at file scope, so that their inclusion
#                           inside the namespaces adds nothing; the macros
#                           that a program and its own headers define (their
#                           include guards too) are undefined after it, so
#                           that the next program includes them again.
#                           Reports still name each program's file and
#                           lines. Each main must end in a return (a renamed
#                           main has no implicit one).

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

# program_files FILE: FILE, and the files that it includes with quotes
# ("name.cuh"), and theirs.
program_files() {
  echo "$1"
  sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*|\1|p' \
    "$1" | while read -r combine_included; do
    [ -f "$(dirname "$1")/$combine_included" ] &&
      program_files "$(dirname "$1")/$combine_included"
  done
}

# combined_namespace SOURCE: the namespace of program SOURCE in the
# program that combine_programs writes: combined_NAME, NAME its file name
# without .cu, as an identifier (the checkers take a thread-local variable
# for the shims' own, not shared memory, only in namespace ::cuemu or
# ::cooperative_groups itself: emulator/check/cuemu_check_module.c).
combined_namespace() {
  echo "combined_$(basename "$1" .cu)" | tr -c 'A-Za-z0-9_\n' _
}

combine_programs() {
  combine_out=$1
  shift
  {
    echo "// $combine_out: made by combine_programs (tests/test_tools.sh)."
    echo "#include <cstdio>"
    echo "#include <cstring>"
    for combine_program; do
      program_files "$combine_program"
    done | awk '!seen[$0]++' | while read -r combine_file; do
      sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*\(<[^>]*>\).*|#include \1|p' \
        "$combine_file"
    done | awk '!seen[$0]++'
    for combine_program; do
      echo "namespace $(combined_namespace "$combine_program") {"
      echo "#define main main_of_program"
      echo "#include \"$combine_program\""
      echo "#undef main"
      echo "}"
      program_files "$combine_program" | while read -r combine_file; do
        sed -n 's/^[[:space:]]*#[[:space:]]*define[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/#undef \1/p' \
          "$combine_file"
      done | awk '!seen[$0]++'
    done
    echo "template <class R> static int run_main(R (*f)(), int, char **) {"
    echo "  return f();"
    echo "}"
    echo "template <class R>"
    echo "static int run_main(R (*f)(int, char **), int argc, char **argv) {"
    echo "  return f(argc, argv);"
    echo "}"
    echo "int main(int argc, char **argv) {"
    for combine_program; do
      combine_name=$(basename "$combine_program" .cu)
      echo "  if (argc > 1 && std::strcmp(argv[1], \"$combine_name\") == 0)"
      echo "    return run_main($(combined_namespace "$combine_program")::main_of_program,"
      echo "                    argc - 1, argv + 1);"
    done
    # printf: the echo of dash would turn the backslash-n into a new line.
    printf '%s\n' '  std::fprintf(stderr, "%s: no program %s\n", argv[0],' \
      '               argc > 1 ? argv[1] : "named");'
    echo "  return 2;"
    echo "}"
  } >"$combine_out"
}

# children_cpu FILE (tests/cpu_times.sh): the processor seconds of the
# calling shell's finished children so far.
. "$srcdir/tests/cpu_times.sh"
