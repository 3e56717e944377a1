#!/bin/sh
# driver_option_lists.sh: nvcc's options that take comma-separated lists
# (nvcc --help: `--include-path <path>,...` and the like) split their
# values as nvcc does (issue 13): -I, -D, -U, -isystem, -include, -L, -l,
# -Xcompiler, -Xlinker and --options-file, in the short form with the
# value glued or in the next word and in the long form with `=`; `\,` is a
# comma inside an item (-D 'GREETING="a\,b"', -Xcompiler '-DXC3=5\,6'), and
# so is a comma inside double quotes (-D 'QUOTED="c,d",AFTER=5' is two
# macros, QUOTED the string "c,d").
# tests/driver/cc13b/option_lists.cu prints
# PASS when every item arrived; -Xlinker -Map,FILE must write FILE. With
# nvcc present, the same command lines build with it (nvcc 13.0 splits
# each of these lists; `-DX=f(1,2)` is nvcc's error too).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/cc13b
l=$d/lists
work=$(mktemp -d)
failed=0

# Two static libraries in two folders, for -L and -l lists.
mkdir -p "$work/lib_a" "$work/lib_b"
step lib_a sh -c "gcc -c -o lib_a/list_one.o '$l/lib_a/list_one.c' &&
  ar rc lib_a/liblistone.a lib_a/list_one.o" || true
step lib_b sh -c "gcc -c -o lib_b/list_two.o '$l/lib_b/list_two.c' &&
  ar rc lib_b/liblisttwo.a lib_b/list_two.o" || true

# build NAME COMPILER: builds the program with the short spellings, then
# with the long ones (as NAME_long).
build() {
  target=$1
  compiler=$2
  step "$target" "$compiler" -I "$l/inc_a,$l/inc_b" -D X=1,Y=2 \
    -D 'GREETING="a\,b"' -D 'QUOTED="c,d",AFTER=5' -DU1=1 -DU2=2 -U U1,U2 \
    -isystem "$l/sys_a,$l/sys_b" -include "$l/pre_one.h,$l/pre_two.h" \
    -L "$work/lib_a,$work/lib_b" -l listone,listtwo \
    -Xcompiler -DXC1=3,-DXC2=4 -Xcompiler '-DXC3=5\,6' \
    -Xlinker "-Map,$work/$target.map" \
    -o "$target" "$d/option_lists.cu" &&
    [ -s "$work/$target.map" ] || fail "$target: -Xlinker -Map,FILE wrote no map"
  step "${target}_long" "$compiler" "--include-path=$l/inc_a,$l/inc_b" \
    --define-macro=X=1,Y=2 '--define-macro=GREETING="a\,b"' \
    '--define-macro=QUOTED="c,d",AFTER=5' \
    -DU1=1 -DU2=2 --undefine-macro=U1,U2 \
    "--system-include=$l/sys_a,$l/sys_b" \
    "--pre-include=$l/pre_one.h,$l/pre_two.h" \
    "--library-path=$work/lib_a,$work/lib_b" --library=listone,listtwo \
    --compiler-options=-DXC1=3,-DXC2=4 '--compiler-options=-DXC3=5\,6' \
    "--linker-options=-Map,$work/${target}_long.map" \
    -o "${target}_long" "$d/option_lists.cu" &&
    [ -s "$work/${target}_long.map" ] ||
    fail "${target}_long: --linker-options=-Map,FILE wrote no map"
}

# --options-file takes a list too.
printf '%s\n' -DOPT_A=1 >"$work/opt_a.txt"
printf '%s\n' -DOPT_B=2 >"$work/opt_b.txt"
printf 'int v = OPT_A + OPT_B;\n' >"$work/optf.cu"
for form in "-optf opt_a.txt,opt_b.txt" "--options-file=opt_a.txt,opt_b.txt"; do
  # shellcheck disable=SC2086 # the form is two words or one
  if (cd "$work" && "$cuemu" -E $form optf.cu) 2>&1 | grep -q "^int v = 1 + 2;"
  then
    echo "PASS: $form"
  else
    fail "$form: $(cd "$work" && "$cuemu" -E $form optf.cu 2>&1 | tail -5)"
  fi
done

build cuemu "$cuemu"
for program in cuemu cuemu_long; do
  [ -x "$work/$program" ] && passes "$program" "./$program"
done

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  build nvcc "$real"
fi

rm -rf "$work"
exit "$failed"
