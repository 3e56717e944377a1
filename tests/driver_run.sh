#!/bin/sh
# driver_run.sh: nvcc's -run and --run-args (issue 13): compile, link and
# run the program (a.out, or -o's name) in the working folder with the
# arguments of --run-args, a list split as nvcc splits it (items at commas,
# their double quotes dropped, then at white space by nvcc's shell: 'x y',z
# is three arguments, a\\b is ab); -run of an executable runs it without
# compiling; a status other than 0 is cuemu-nvcc's exit status, without a
# message, as nvcc (cuemu_compile_command() returns an error naming it);
# -run with -c is an error;
# --run-args without -run builds and runs nothing, as nvcc.
# tests/driver/cc13c/run_args.cu prints its arguments and a kernel's sum.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
src=$srcdir/tests/driver/cc13c/run_args.cu
work=$(mktemp -d)
failed=0

out=$(cd "$work" && "$cuemu" -run "$src" --run-args 'x y',z,'"p q"','a\\b' 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "[x][y][z][p][q][ab] sum 496" ] &&
  [ -x "$work/a.out" ]; then
  echo "PASS: -run --run-args: built a.out and ran it with nvcc's arguments"
else
  fail "-run --run-args: status $rc, '$out'"
fi

out=$(cd "$work" && "$cuemu" -run a.out --run-args=--status=0,again 2>&1)
[ "$out" = "[--status=0][again] sum 496" ] &&
  echo "PASS: -run a.out runs the executable" || fail "-run a.out: '$out'"

mkdir "$work/sub"
out=$(cd "$work" && "$cuemu" -run -o sub/prog "$src" -run-args --status=4 2>&1)
rc=$?
case $rc:$out in
"4:[--status=4] sum 496")
  echo "PASS: -run -o sub/prog: the program's status 4 is cuemu-nvcc's" ;;
*) fail "-run status 4: status $rc, '$out'" ;;
esac

if (cd "$work" && "$cuemu" -run -c "$src" -o r.o) >"$work/c.log" 2>&1; then
  fail "-run -c is accepted"
elif grep -q "does not go with -c" "$work/c.log"; then
  echo "PASS: -run -c is an error"
else
  fail "-run -c: $(cat "$work/c.log")"
fi

out=$(cd "$work" && "$cuemu" -o quiet "$src" --run-args=never 2>&1)
[ -z "$out" ] && [ -x "$work/quiet" ] &&
  echo "PASS: --run-args without -run runs nothing" ||
  fail "--run-args without -run: '$out'"

rm -rf "$work"
exit $failed
