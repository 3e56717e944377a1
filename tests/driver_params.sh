#!/bin/sh
# driver_params.sh: forms about kernels and their parameters that nvcc
# refuses are refused by cuemu-nvcc too (issue 13): a __global__ member
# function (static or not, a function or a member template) or one defined
# in a friend declaration (nvcc's messages at the user's line), a kernel
# that is constexpr or consteval, has an exception specification or a
# deduced return type, takes an rvalue reference or an initializer list, or
# declares a template parameter pack before its last template parameter
# (tests/driver/params/kernel_forms.cu, nvcc's messages), and a
# launch in kernel code whose argument has a user-provided copy
# constructor or destructor (nvcc refuses it when it compiles, with the
# messages that cuemu-nvcc gives at the launch's line; one that cuemu-cc
# does not see as such is refused when it runs). Narrowing in
# braces in host code is accepted under -std=c++03 and refused under
# -std=c++11, as nvcc does; <cooperative_groups.h> under -std=c++11 stops
# at libcu++'s #error, as with nvcc; -std takes nvcc's five values
# (docs/dialects.md). With nvcc present, it is checked to agree.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/params
work=$(mktemp -d)
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

member="A __global__ function or function template cannot be a member function"
friend="A __global__ function or function template cannot be defined in a friend declaration"
for case in static_member_kernel.cu:6:member member_kernel_template.cu:11:member \
  friend_kernel_definition.cu:8:friend; do
  file=${case%%:*}
  rest=${case#*:}
  line=${rest%:*}
  eval "message=\$${rest#*:}"
  if (cd "$work" && "$nvcc" -c -o x.o "$d/$file") >"$work/$file.log" 2>&1; then
    fail "$file compiles"
  elif grep -q "$file:$line: $message" "$work/$file.log" &&
    ! grep -q -e cuda_builtins -e error: "$work/$file.log"; then
    echo "PASS: $file is refused at line $line, as nvcc refuses it"
  else
    fail "$file: $(cat "$work/$file.log")"
  fi
done

# A kernel's forms that nvcc refuses (tests/driver/params/kernel_forms.cu,
# -DCASE=N at line LINE, case 6 under -std=c++20), and its near misses.
file=kernel_forms.cu
for case in 1:17:"A __global__ function or function template cannot be marked constexpr" \
  2:19:"An exception specification is not allowed for a __global__ function or function template" \
  3:21:"a __global__ function must not have a deduced return type" \
  4:23:"a __global__ function cannot have a parameter with rvalue reference type" \
  5:25:"a __global__ function or function template cannot have a parameter with type std::initializer_list" \
  6:28:"A __global__ function or function template cannot be marked consteval" \
  7:33:"Pack template parameter must be the last template parameter for a variadic __global__ function template"; do
  n=${case%%:*}
  rest=${case#*:}
  line=${rest%%:*}
  message=${rest#*:}
  std=
  [ "$n" = 6 ] && std=-std=c++20
  # shellcheck disable=SC2086 # std is one word or none
  if (cd "$work" && "$nvcc" $std -DCASE="$n" -c -o x.o "$d/$file") >"$work/$file.$n.log" 2>&1; then
    fail "$file case $n compiles"
  elif grep -qF "$file:$line: $message" "$work/$file.$n.log"; then
    echo "PASS: $file case $n is refused at line $line, as nvcc refuses it"
  else
    fail "$file case $n: $(head -5 "$work/$file.$n.log")"
  fi
done
if (cd "$work" && "$nvcc" -o forms "$d/$file" && ./forms) >"$work/$file.log" 2>&1; then
  echo "PASS: $file's near misses build and run"
else
  fail "$file's near misses: $(head -5 "$work/$file.log")"
fi

file=device_launch_nontrivial.cu
copy="cannot pass an argument with a user-provided copy-constructor to a device-side kernel launch"
dtor="cannot pass an argument with a user-provided destructor to a device-side kernel launch"
if (cd "$work" && "$nvcc" -rdc=true -c -o child.o "$d/$file") >"$work/child.log" 2>&1; then
  fail "$file compiles"
elif awk -v f="$file" -v c="$copy" -v m="$dtor" '
    index($0, f ":22:") && /required from here/ { at = 22 }
    index($0, f ":26:") && /required from here/ { at = 26 }
    index($0, f ":46:") && /required from here/ { at = 46 }
    index($0, c) && at == 22 { one = 1 }
    index($0, m) && at == 26 { two = 1 }
    index($0, c) && at == 46 { three = 1 }
    END { exit !(one && two && three) }' "$work/child.log"; then
  echo "PASS: launches in kernel code with a user-provided copy constructor or destructor are refused when compiled, at their lines, as nvcc refuses them (of the kernel's parameter, made from an int argument, too)"
else
  fail "$file: $(cat "$work/child.log")"
fi

file=device_launch_unseen.cu
if (cd "$work" && "$nvcc" -rdc=true -o unseen "$d/$file") >"$work/unseen.log" 2>&1 &&
  CUEMU_QUIET=0 "$work/unseen" >"$work/unseen.out" 2>&1 &&
  grep -qx "cudaErrorAssert 0" "$work/unseen.out" &&
  grep -q "kernel spawning: .*viewed: .*user-provided copy constructor" "$work/unseen.out"; then
  echo "PASS: a launch in kernel code that cuemu-cc does not see, of a parameter with a user-provided copy constructor, is refused when it runs, naming the kernels"
else
  fail "$file: $(cat "$work/unseen.log" "$work/unseen.out" 2>/dev/null)"
fi

file=cxx03_narrowing.cu
if (cd "$work" && "$nvcc" -std=c++03 -o c03 "$d/$file") >"$work/c03.log" 2>&1 &&
  "$work/c03" >"$work/c03.out" 2>&1 && grep -qx 60 "$work/c03.out"; then
  echo "PASS: -std=c++03 accepts narrowing in braces, as nvcc does"
else
  fail "-std=c++03 $file: $(cat "$work/c03.log" "$work/c03.out" 2>/dev/null)"
fi
if (cd "$work" && "$nvcc" -std=c++11 -c -o c11.o "$d/$file") >"$work/c11.log" 2>&1; then
  fail "-std=c++11 accepts narrowing in braces in host code"
elif grep -q "$file:20:.*error: narrowing conversion" "$work/c11.log"; then
  echo "PASS: -std=c++11 refuses narrowing in braces in host code, as nvcc does"
else
  fail "-std=c++11 $file: $(cat "$work/c11.log")"
fi

file=cxx11_cooperative_groups.cu
if (cd "$work" && "$nvcc" -std=c++11 -c -o cg.o "$d/$file") >"$work/cg.log" 2>&1; then
  fail "-std=c++11 compiles a unit with <cooperative_groups.h>"
elif grep -q "error libcu++ requires at least C++ 17" "$work/cg.log" &&
  (cd "$work" && "$nvcc" -o cg "$d/$file") >"$work/cg17.log" 2>&1 &&
  "$work/cg"; then
  echo "PASS: <cooperative_groups.h> under -std=c++11 stops at libcu++'s #error, as with nvcc"
else
  fail "$file: $(cat "$work/cg.log" "$work/cg17.log" 2>/dev/null)"
fi

refused=0
for value in gnu++17 c++98 c++23; do
  if ! "$nvcc" -std=$value -c -o "$work/x.o" "$d/$file" >"$work/std.log" 2>&1 &&
    grep -q "Value '$value' is not defined for option 'std'" "$work/std.log"; then
    refused=$((refused + 1))
  fi
done
if [ "$refused" -eq 3 ]; then
  echo "PASS: -std takes nvcc's five values only"
else
  fail "-std=gnu++17, c++98 or c++23 is accepted: $(cat "$work/std.log")"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  (cd "$work" && "$real" -arch=sm_90 -std=c++11 -c -o x.o "$d/$file") \
    >/dev/null 2>&1 && fail "nvcc -std=c++11 accepts $file: the test is wrong"
  file=cxx03_narrowing.cu
  (cd "$work" && "$real" -arch=sm_90 -std=c++03 -c -o x.o "$d/$file") \
    >/dev/null 2>&1 || fail "nvcc -std=c++03 refuses $file: the test is wrong"
  (cd "$work" && "$real" -arch=sm_90 -std=c++11 -c -o x.o "$d/$file") \
    >/dev/null 2>&1 && fail "nvcc -std=c++11 accepts $file: the test is wrong"
  for file in static_member_kernel.cu member_kernel_template.cu \
    friend_kernel_definition.cu device_launch_nontrivial.cu \
    device_launch_unseen.cu; do
    (cd "$work" && "$real" -arch=sm_90 -rdc=true -c -o x.o "$d/$file") \
      >/dev/null 2>&1 && fail "nvcc accepts $file: the test is wrong"
  done
  file=kernel_forms.cu
  for n in 1 2 3 4 5 6 7; do
    (cd "$work" && "$real" -arch=sm_90 -std=c++20 -DCASE="$n" -c -o x.o "$d/$file") \
      >/dev/null 2>&1 && fail "nvcc accepts $file case $n: the test is wrong"
  done
  (cd "$work" && "$real" -arch=sm_90 -c -o x.o "$d/$file") >/dev/null 2>&1 ||
    fail "nvcc refuses $file's near misses: the test is wrong"
fi

rm -rf "$work"
exit $failed
