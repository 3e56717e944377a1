# gdb_lib.sh: what the gdb batch tests (tests/gdb/*.sh) share. Sourced, not
# run, after setting `name` to the test's name. Run by `make check` with
# AM_TESTS_ENVIRONMENT; skipped (77) when gdb, or its Python, is missing,
# or failed where CI=true (see tests/test_tools.sh).
#
#   build PROGRAM        compiles tests/gdb/PROGRAM.cu with cuemu-cc -g (and
#                        $GDB_BUILD_OPTIONS, a script's own) into
#                        $work/PROGRAM
#   line FILE NAME       the line of FILE.cu marked "LINE:NAME"
#   run_gdb OUT ARGS...  runs cuemu-gdb -batch -nx ARGS... (blocks serially),
#                        output in $work/OUT
#   expect OUT WHAT ERE  fails (saying WHAT) unless $work/OUT has a line
#                        matching the extended regular expression ERE
#   reject OUT WHAT ERE  fails if it has one
#   finish               exits 0, or 1 after showing the outputs of failures

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
gdb_cmd=${GDB:-gdb}
. "$srcdir/tests/test_tools.sh"

command -v "$gdb_cmd" >/dev/null 2>&1 || tool_missing "$name" "gdb not found"
"$gdb_cmd" -batch -nx -ex 'python print("cuemu-python-ok")' 2>&1 |
  grep -q cuemu-python-ok ||
  tool_missing "$name" "$gdb_cmd has no Python support"
for tool in cuemu-cc cuemu-gdb; do
  if [ ! -x "$builddir/$tool" ]; then
    echo "$name: $builddir/$tool is not built"
    exit 1
  fi
done

work=$builddir/tests/tmp/$name.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT

failed=0
failed_outputs=

build() {
  # shellcheck disable=SC2086 # GDB_BUILD_OPTIONS: words of a script's own
  if ! "$builddir/cuemu-cc" -g ${GDB_BUILD_OPTIONS:-} "$srcdir/tests/gdb/$1.cu" -o "$work/$1" \
    >"$work/build-$1.log" 2>&1; then
    cat "$work/build-$1.log"
    echo "FAIL: $name: tests/gdb/$1.cu did not compile with cuemu-cc -g"
    exit 1
  fi
}

line() {
  n=$(grep -n "LINE:$2 " "$srcdir/tests/gdb/$1.cu" | cut -d: -f1)
  if [ -z "$n" ]; then
    echo "FAIL: $name: no LINE:$2 marker in tests/gdb/$1.cu" >&2
    exit 1
  fi
  echo "$n"
}

run_gdb() {
  out=$1
  shift
  # Not the user's CUEMU_WORKERS: the tests need serial blocks. A hung gdb
  # becomes a failure after two minutes.
  CUEMU_GDB_DIR=$srcdir/emulator/gdb CUEMU_WORKERS=1 GDB=$gdb_cmd \
    timeout 120 "$builddir/cuemu-gdb" -batch -nx "$@" >"$work/$out" 2>&1
  echo "gdb exit status $?" >>"$work/$out"
}

note_failure() {
  echo "FAIL: $name: $2"
  failed=$((failed + 1))
  case " $failed_outputs " in
  *" $1 "*) ;;
  *) failed_outputs="$failed_outputs $1" ;;
  esac
}

expect() {
  grep -E -q -e "$3" "$work/$1" || note_failure "$1" "$2 (no line matches: $3)"
}

reject() {
  if grep -E -q -e "$3" "$work/$1"; then
    note_failure "$1" "$2 (a line matches: $3)"
  fi
}

finish() {
  for out in $failed_outputs; do
    echo "---- $out ----"
    cat "$work/$out"
  done
  if [ "$failed" -ne 0 ]; then
    echo "$name: $failed failure(s)"
    exit 1
  fi
  echo "$name: ok"
  exit 0
}
