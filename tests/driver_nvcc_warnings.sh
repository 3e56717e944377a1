#!/bin/sh
# driver_nvcc_warnings.sh: nvcc's optional warnings about launches and
# kernels (tests/driver/nvcc_warnings), which cuemu-nvcc accepted and never
# gave, so that -Werror=default-stream-launch accepted what nvcc refuses.
# - -Wdefault-stream-launch: each launch of the user's code with two or
#   three configuration arguments (a header's too), at its line; not one
#   with a stream.
# - -Wmissing-launch-bounds: each kernel defined without __launch_bounds__
#   (nvcc also repeats it at a template's instantiation; cuemu does not).
# - -Werror=default-stream-launch, and -Werror all-warnings with a warning
#   asked for, refuse the compile with the same lines as errors and write
#   nothing; -w silences the warnings; -Werror=foo is nvcc's error.
# - A compile-cache hit gives the warnings again.
# - Warning #20037-D, which nvcc gives without an option: a function
#   declared __device__ and defined without an execution space
#   (tests/programs/trialray/redeclared_space.cu), at each definition's
#   line, naming the function as nvcc does; -w, -diag-suppress 20037 and
#   nv_diag pragmas (tests/driver/nvcc_warnings/redeclared_pragmas.cu)
#   silence it, -Werror all-warnings makes it an error.
# - Warnings #20039-D and #20040-D: a function first declared without an
#   execution space (a host function) and redeclared __device__ or
#   __host__ __device__ (tests/driver/nvcc_warnings/host_redeclared.cu,
#   members, constructors, operators and templates too), at the first such redeclaration's line
#   alone; -w, -diag-suppress of the number and nv_diag pragmas silence
#   them, -Werror all-warnings makes them errors. -diag-error of the number
#   makes it an error without the number ("error: a __host__ ..."), which
#   -w leaves; -diag-suppress wins over it and -diag-warn too, in either
#   order. The pragma nv_diag_error makes it that error too, even under -w
#   (tests/driver/nvcc_warnings/redeclared_pragma_levels.cu).
# - Warning #20036-D: a function declared __device__ and redeclared
#   __host__ __device__ (tests/driver/nvcc_warnings/device_redeclared.cu)
#   is one, which host code may call, as nvcc treats it; the warning at the
#   first redeclaration; a host call of its __device__ overload is refused.
# - Warning #117-D: a `return;` in main, which nvcc takes for a return of 0
#   (tests/driver/nvcc_warnings/main_bare_return.cu), at its line; -w,
#   -diag-suppress 117 and `#pragma nv_diag_suppress 117` silence it.
# - Warning #117-D again: a `return;` of a device-only function returning a
#   value (tests/driver/nvcc_warnings/device_bare_return.cu), which nvcc
#   takes and g++ refused, at its line, naming the function as nvcc does.
# - Warnings #20091-D and #20092-D: host code that reads or writes a
#   __device__ or __constant__ variable by name
#   (tests/driver/nvcc_warnings/host_device_variables.cu), at each read and
#   write (an argument of a parameter that takes its value, a variable
#   template's instance), none at its address or a reference; -w and -diag-suppress
#   silence them, -Werror all-warnings makes them errors.
# - Warning #20012-D: __host__ or __device__ on a member function defaulted
#   on its first declaration (tests/driver/nvcc_warnings/
#   defaulted_spaces.cu), at each qualifier, the unit's list twice.
# - Warning #117-D again: a `return;` of a device-only function returning a
#   reference or a deduced type (tests/driver/nvcc_warnings/
#   device_bare_return_reference.cu), which builds; a read through the
#   reference it returns fails the launch, naming it. Function templates,
#   overload sets and class templates' members with a deduced type build
#   too (device_bare_return_deduced.cu).
# The lines expected are nvcc 13.0's (its own build of the same command is
# recorded with nvcc_build). Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_nvcc_warnings.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_nvcc_warnings.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/nvcc_warnings

# The diagnostics of a compile, as "file:line: kind [option]", sorted.
diagnostics() {
  sed -n 's#^.*/\([a-z_.]*\):\([0-9]*\): \(warning\|error\): .* \[\(.*\)\]$#\1:\2: \3 [\4]#p' \
    "$1" | LC_ALL=C sort
}

stream_lines='kernels.cuh:16
main.cu:12
main.cu:13'
bounds_lines='kernels.cuh:13
kernels.cuh:6'
expect() { # KIND OPTION LINES: the expected diagnostics, sorted
  printf '%s\n' "$3" | sed "s|\$|: $1 [-$2]|" | LC_ALL=C sort
}

check() { # NAME LOG EXPECTED
  if [ "$(diagnostics "$2")" = "$3" ]; then
    echo "PASS: $1"
  else
    fail "$1: got"
    sed 's/^/  | /' "$2" | head -20
  fi
}

step plain "$nvcc" -o plain "$d/main.cu" && passes "no option, no warning" ./plain &&
  check "no option, no warning" "$work/plain.log" ""

for hit in first again; do
  step "stream_$hit" "$nvcc" -Wdefault-stream-launch -c -o stream.o \
    "$d/main.cu" &&
    check "-Wdefault-stream-launch ($hit)" "$work/stream_$hit.log" \
      "$(expect warning Wdefault-stream-launch "$stream_lines")"
done

step bounds "$nvcc" -Wmissing-launch-bounds -o bounds "$d/main.cu" &&
  passes "-Wmissing-launch-bounds builds the program" ./bounds &&
  check "-Wmissing-launch-bounds" "$work/bounds.log" \
    "$(expect warning Wmissing-launch-bounds "$bounds_lines")"

refused() { # NAME EXPECTED OPTIONS...
  name=$1 expected=$2
  shift 2
  if (cd "$work" && "$nvcc" "$@" -c -o "$name.o" "$d/main.cu") \
    >"$work/$name.log" 2>&1; then
    fail "$name: $* compiled"
  elif [ -e "$work/$name.o" ]; then
    fail "$name: $* left $name.o"
  elif grep -q "errors detected in the compilation of" "$work/$name.log"; then
    check "$name: $* refuses the compile" "$work/$name.log" "$expected"
  else
    fail "$name: unexpected error: $(head -3 "$work/$name.log")"
  fi
}
refused werror "$(expect error Werror=default-stream-launch "$stream_lines")" \
  -Werror=default-stream-launch
refused werror_all "$(expect error Werror=missing-launch-bounds "$bounds_lines")" \
  -Werror all-warnings -Wmissing-launch-bounds

step silenced "$nvcc" -w -Wdefault-stream-launch -c -o silenced.o "$d/main.cu" &&
  check "-w silences -Wdefault-stream-launch" "$work/silenced.log" ""

# nvcc 13.0's lines for redeclared_space.cu, but for the path.
redeclared=$srcdir/tests/programs/trialray/redeclared_space.cu
for hit in first again; do
  step "redeclared_$hit" "$nvcc" -c -o redeclared.o "$redeclared" &&
    if [ "$(sed -n 's|^.*/\(redeclared_space.cu:.*#20037-D: .*\)$|\1|p' \
      "$work/redeclared_$hit.log")" = 'redeclared_space.cu:28: warning #20037-D: a __device__ function("Mover::at") redeclared without __device__, hence treated as a __host__ __device__ function
redeclared_space.cu:36: warning #20037-D: a __device__ function("Box<T>::width") redeclared without __device__, hence treated as a __host__ __device__ function
redeclared_space.cu:41: warning #20037-D: a __device__ function("geo::square") redeclared without __device__, hence treated as a __host__ __device__ function
redeclared_space.cu:44: warning #20037-D: a __device__ function("cube") redeclared without __device__, hence treated as a __host__ __device__ function' ]; then
      echo "PASS: warning #20037-D ($hit)"
    else
      fail "warning #20037-D ($hit): got"
      sed 's/^/  | /' "$work/redeclared_$hit.log" | head -20
    fi
done
for silence in "-w" "-diag-suppress 20037" "--diag-suppress=177,20037"; do
  # shellcheck disable=SC2086 # the option's words
  step redeclared_silenced "$nvcc" $silence -c -o redeclared.o "$redeclared" &&
    if grep -q 20037 "$work/redeclared_silenced.log"; then
      fail "$silence did not silence warning #20037-D"
    else
      echo "PASS: $silence silences warning #20037-D"
    fi
done
step redeclared_pragmas "$nvcc" -c -o redeclared_pragmas.o \
  "$d/redeclared_pragmas.cu" &&
  if [ "$(sed -n 's|^.*/\(redeclared_pragmas.cu:[0-9]*\): warning #20037-D: .*$|\1|p' \
    "$work/redeclared_pragmas.log")" = "redeclared_pragmas.cu:13" ]; then
    echo "PASS: nv_diag pragmas suppress warning #20037-D"
  else
    fail "nv_diag pragmas: got"
    sed 's/^/  | /' "$work/redeclared_pragmas.log" | head -20
  fi
rm -f "$work/redeclared_error.o"
if (cd "$work" && "$nvcc" -Werror all-warnings -c -o redeclared_error.o \
  "$redeclared") >"$work/redeclared_error.log" 2>&1; then
  fail "-Werror all-warnings took warning #20037-D"
elif [ "$(grep -c 'redeclared_space.cu:[0-9]*: error #20037-D: ' \
  "$work/redeclared_error.log")" = 4 ] && [ ! -e "$work/redeclared_error.o" ]; then
  echo "PASS: -Werror all-warnings makes warning #20037-D an error"
else
  fail "-Werror all-warnings: $(head -3 "$work/redeclared_error.log")"
fi

# nvcc 13.0's lines for host_redeclared.cu, but for the path.
host_lines() { # LOG KIND: the #20039-D and #20040-D lines of a compile
  sed -n "s|^.*/\(host_redeclared.cu:.*$2 #200[34][09]-D: .*\)\$|\1|p" "$1"
}
for number in 20039:10:plain 20040:14:twice 20039:20:Op::at \
  20040:21:Op::sum 20039:24:same 20040:29:'Box<T>::width' \
  20039:35:geo::square 20039:39:host_first 20039:46:Acc::Acc \
  20040:47:Acc::operator+=; do
  n=${number%%:*} rest=${number#*:}
  case $n in 20039) space=__device__ ;; *) space="__host__ __device__" ;; esac
  printf 'host_redeclared.cu:%s: KIND #%s-D: a __host__ function("%s") redeclared with %s, hence treated as a __host__ __device__ function\n' \
    "${rest%%:*}" "$n" "${rest#*:}" "$space"
done >"$work/host_lines"
step host_redeclared "$nvcc" -o host_redeclared "$d/host_redeclared.cu" &&
  passes "functions redeclared __device__ run" ./host_redeclared &&
  if [ "$(host_lines "$work/host_redeclared.log" warning)" = \
    "$(sed 's/KIND/warning/' "$work/host_lines")" ]; then
    echo "PASS: warnings #20039-D and #20040-D"
  else
    fail "warnings #20039-D and #20040-D: got"
    sed 's/^/  | /' "$work/host_redeclared.log" | head -20
  fi
for silence in "-w" "-diag-suppress 20039,20040" "--diag-suppress=20040"; do
  # shellcheck disable=SC2086 # the option's words
  step host_silenced "$nvcc" $silence -c -o host_redeclared.o \
    "$d/host_redeclared.cu" &&
    if [ "$(host_lines "$work/host_silenced.log" warning)" = \
      "$(sed -n 's/KIND/warning/p' "$work/host_lines" |
        if [ "$silence" = --diag-suppress=20040 ]; then grep 20039; fi)" ]; then
      echo "PASS: $silence silences warnings #20039-D and #20040-D as nvcc"
    else
      fail "$silence: got"
      sed 's/^/  | /' "$work/host_silenced.log" | head -20
    fi
done
rm -f "$work/host_error.o"
if (cd "$work" && "$nvcc" -Werror all-warnings -c -o host_error.o \
  "$d/host_redeclared.cu") >"$work/host_error.log" 2>&1; then
  fail "-Werror all-warnings took warnings #20039-D and #20040-D"
elif [ "$(host_lines "$work/host_error.log" error)" = \
  "$(sed 's/KIND/error/' "$work/host_lines")" ] &&
  [ ! -e "$work/host_error.o" ]; then
  echo "PASS: -Werror all-warnings makes warnings #20039-D and #20040-D errors"
else
  fail "-Werror all-warnings: $(head -3 "$work/host_error.log")"
fi

# The kind of each #20039-D and #20040-D line of a compile, as "LINE KIND"
# with nvcc 13.0's kinds: "warning #20040-D", "error #20039-D", "error".
host_kinds() {
  sed -n 's|^.*/host_redeclared.cu:\([0-9]*\): \(.*\): a __host__ function(.*$|\1 \2|p' "$1"
}
lines20039="10 20 24 35 39 46" lines20040="14 21 29 47"
kinds() { # KIND20039 KIND20040: the lines expected ('-' for none)
  for l in $lines20039; do [ "$1" = - ] || echo "$l $1"; done
  for l in $lines20040; do [ "$2" = - ] || echo "$l $2"; done
}
for case in "-diag-error 20039|1|error|warning #20040-D" \
  "--diag-error=20039,20040|1|error|error" \
  "-w -diag-error 20039|1|error|-" \
  "-diag-error 20039 -diag-suppress 20039|0|-|warning #20040-D" \
  "-diag-suppress 20039 -diag-error 20039|0|-|warning #20040-D" \
  "-diag-warn 20039 -diag-error 20039|0|warning #20039-D|warning #20040-D" \
  "-Werror all-warnings -diag-warn 20040|1|error #20039-D|error #20040-D"; do
  options=${case%%|*} rest=${case#*|}
  refused=${rest%%|*} rest=${rest#*|}
  rm -f "$work/host_diag.o"
  # shellcheck disable=SC2086 # the options' words
  (cd "$work" && "$nvcc" $options -c -o host_diag.o "$d/host_redeclared.cu") \
    >"$work/host_diag.log" 2>&1
  status=$?
  if [ "$refused" = 1 ] && { [ $status = 0 ] || [ -e "$work/host_diag.o" ]; }; then
    fail "$options: took the compile"
  elif [ "$refused" = 0 ] && [ $status != 0 ]; then
    fail "$options: refused the compile"
  elif [ "$(host_kinds "$work/host_diag.log" | sort -n)" = \
    "$(kinds "${rest%%|*}" "${rest#*|}" | sort -n)" ]; then
    echo "PASS: $options gives nvcc's diagnostics"
  else
    fail "$options: got"
    sed 's/^/  | /' "$work/host_diag.log" | head -20
  fi
done

# A function declared __device__ and redeclared __host__ __device__ is one
# (host code calls it), with warning #20036-D at the first redeclaration.
redeclared_kinds() { # LOG: "LINE KIND" of each #20036-D line
  sed -n 's|^.*/device_redeclared.cu:\([0-9]*\): \(.*\): a __device__ function(.*) redeclared with __host__ __device__.*$|\1 \2|p' "$1" |
    paste -sd, -
}
step device_redeclared "$nvcc" -o device_redeclared "$d/device_redeclared.cu" &&
  passes "functions redeclared __host__ __device__ run" ./device_redeclared &&
  if [ "$(redeclared_kinds "$work/device_redeclared.log")" = \
    "14 warning #20036-D,17 warning #20036-D,26 warning #20036-D,30 warning #20036-D" ] &&
    grep -q 'device_redeclared.cu:26: warning #20036-D: a __device__ function("geo::square") redeclared with __host__ __device__, hence treated as a __host__ __device__ function' \
      "$work/device_redeclared.log"; then
    echo "PASS: warning #20036-D"
  else
    fail "warning #20036-D: got"
    sed 's/^/  | /' "$work/device_redeclared.log" | head -20
  fi
step device_redeclared_quiet "$nvcc" -diag-suppress 20036 -c \
  -o device_redeclared.o "$d/device_redeclared.cu" &&
  if [ -z "$(redeclared_kinds "$work/device_redeclared_quiet.log")" ]; then
    echo "PASS: -diag-suppress 20036 silences warning #20036-D"
  else
    fail "-diag-suppress 20036: got"
    sed 's/^/  | /' "$work/device_redeclared_quiet.log" | head -20
  fi
if (cd "$work" && "$nvcc" -DREFUSED -c -o device_redeclared_refused.o \
  "$d/device_redeclared.cu") >"$work/device_redeclared_refused.log" 2>&1; then
  fail "a host call of a __device__ overload was taken"
elif grep -q 'device_redeclared.cu:44:.*calling a __device__ function("only_device") from a __host__ function is not allowed' \
  "$work/device_redeclared_refused.log"; then
  echo "PASS: a host call of the __device__ overload is refused at line 44"
else
  fail "-DREFUSED: $(head -5 "$work/device_redeclared_refused.log")"
fi

# A `return;` in main returns 0 from there, with warning #117-D at its line
# alone (not at a lambda's or a local class's `return;`); -diag-suppress
# 117, -w and `#pragma nv_diag_suppress 117` silence it.
bare_lines() { # LOG: the lines of its #117-D warnings
  sed -n 's|^.*/main_bare_return.cu:\([0-9]*\): warning #117-D: non-void function "main" should return a value$|\1|p' "$1" |
    paste -sd, -
}
step main_bare_return "$nvcc" -o main_bare_return "$d/main_bare_return.cu" &&
  passes "a return; in main ends it with status 0" ./main_bare_return &&
  if [ "$(bare_lines "$work/main_bare_return.log")" = 39 ]; then
    echo "PASS: warning #117-D at main's return; alone"
  else
    fail "warning #117-D: got"
    sed 's/^/  | /' "$work/main_bare_return.log" | head -20
  fi
# The same in `auto main(...) -> int try {...} catch (...) {...}`: a
# `return;` in the try block and one in the handler (lines 30 and 35).
bare_try_lines() { # LOG: the lines of its #117-D warnings
  sed -n 's|^.*/main_bare_return_try.cu:\([0-9]*\): warning #117-D: non-void function "main" should return a value$|\1|p' "$1" |
    paste -sd, -
}
step main_bare_return_try "$nvcc" -o main_bare_return_try \
  "$d/main_bare_return_try.cu" &&
  passes "a return; in a function-try-block's main returns 0" \
    ./main_bare_return_try 1 &&
  passes "a return; in main's handler returns 0" ./main_bare_return_try &&
  if [ "$(bare_try_lines "$work/main_bare_return_try.log")" = 30,35 ]; then
    echo "PASS: warning #117-D at the try block's and the handler's return;"
  else
    fail "warning #117-D (function-try-block): got"
    sed 's/^/  | /' "$work/main_bare_return_try.log" | head -20
  fi
step main_bare_return_20 "$nvcc" -std=c++20 -o main_bare_return_20 \
  "$d/main_bare_return.cu" &&
  passes "a template lambda's return; in main is its own (-std=c++20)" \
    ./main_bare_return_20 &&
  if [ "$(bare_lines "$work/main_bare_return_20.log")" = 39 ]; then
    echo "PASS: warning #117-D at main's return; alone (-std=c++20)"
  else
    fail "warning #117-D (-std=c++20): got"
    sed 's/^/  | /' "$work/main_bare_return_20.log" | head -20
  fi
for quiet in "-diag-suppress 117" -w -DQUIET_PRAGMA; do
  # shellcheck disable=SC2086 # the option's words
  step main_bare_return_quiet "$nvcc" $quiet -c -o main_bare_return.o \
    "$d/main_bare_return.cu" &&
    if [ -z "$(bare_lines "$work/main_bare_return_quiet.log")" ]; then
      echo "PASS: $quiet silences warning #117-D"
    else
      fail "$quiet: got"
      sed 's/^/  | /' "$work/main_bare_return_quiet.log" | head -20
    fi
done

# A `return;` of a device-only function returning a value (a ray marcher's
# step counter, members in and after their class, a specifier after the
# type, a trailing return type, tests/driver/nvcc_warnings/
# device_bare_return.cu) builds, with warning #117-D naming the function as
# nvcc does, at those lines alone (not a constructor's, a void function's
# or a lambda's); templates build too, a void instance included, without
# the warnings nvcc gives at their other instances; -diag-suppress 117
# silences it.
device_bare() { # LOG: its #117-D warnings, "line name", one a line
  sed -n 's|^.*/device_bare_return.cu:\([0-9]*\): warning #117-D: non-void function "\(.*\)" should return a value$|\1 \2|p' "$1"
}
device_bare_want='18 marcher::march
32 Sphere::hit
39 Sphere::inside
71 steps
76 fog'
step device_bare_return "$nvcc" -o device_bare_return \
  "$d/device_bare_return.cu" &&
  passes "a device function's return; builds and runs" ./device_bare_return &&
  if [ "$(device_bare "$work/device_bare_return.log")" = "$device_bare_want" ]; then
    echo "PASS: warning #117-D at the device functions' return; alone"
  else
    fail "warning #117-D (device functions): got"
    sed 's/^/  | /' "$work/device_bare_return.log" | head -20
  fi
step device_bare_return_quiet "$nvcc" -diag-suppress 117 -c \
  -o device_bare_return.o "$d/device_bare_return.cu" &&
  if [ -z "$(device_bare "$work/device_bare_return_quiet.log")" ]; then
    echo "PASS: -diag-suppress 117 silences the device functions' #117-D"
  else
    fail "-diag-suppress 117 (device functions): got"
    sed 's/^/  | /' "$work/device_bare_return_quiet.log" | head -20
  fi

# Host code that reads or writes a __device__ or __constant__ variable by
# name (tests/driver/nvcc_warnings/host_device_variables.cu): warnings
# #20091-D and #20092-D, nvcc 13.0's lines but for the path, none at an
# address, a reference, a reference parameter, sizeof, a __managed__ or
# const variable or a local of the same name; at an argument that a
# parameter takes by value (printf's too), at a variable template's
# instances, named with their arguments, in nested and local classes, and
# in templates where the use does not depend on their parameters; -w, -diag-suppress of each number
# and nv_diag_suppress silence them, -Werror all-warnings makes them errors.
host_access() { # LOG KIND: the #20091-D and #20092-D lines of a compile
  sed -n "s|^.*/\(host_device_variables.cu:.*$2 #2009[12]-D: .*\)\$|\1|p" "$1"
}
host_access_want='host_device_variables.cu:42: KIND #20092-D: a __device__ variable "hits" cannot be directly written in a host function
host_device_variables.cu:43: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:44: KIND #20092-D: a __device__ variable "weights" cannot be directly written in a host function
host_device_variables.cu:45: KIND #20091-D: a __device__ variable "weights" cannot be directly read in a host function
host_device_variables.cu:46: KIND #20092-D: a __device__ variable "params" cannot be directly written in a host function
host_device_variables.cu:47: KIND #20091-D: a __device__ variable "params" cannot be directly read in a host function
host_device_variables.cu:48: KIND #20091-D: a __constant__ variable "bias" cannot be directly read in a host function
host_device_variables.cu:49: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:49: KIND #20092-D: a __device__ variable "hits" cannot be directly written in a host function
host_device_variables.cu:50: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:50: KIND #20092-D: a __device__ variable "hits" cannot be directly written in a host function
host_device_variables.cu:51: KIND #20092-D: a __device__ variable "grid::cells" cannot be directly written in a host function
host_device_variables.cu:53: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:56: KIND #20091-D: a __device__ variable "<unnamed>::seen" cannot be directly read in a host function
host_device_variables.cu:76: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:108: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:109: KIND #20091-D: a __constant__ variable "bias" cannot be directly read in a host function
host_device_variables.cu:110: KIND #20091-D: a __device__ variable "weights" cannot be directly read in a host function
host_device_variables.cu:111: KIND #20091-D: a __device__ variable "params" cannot be directly read in a host function
host_device_variables.cu:112: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:113: KIND #20091-D: a __device__ variable "cursor" cannot be directly read in a host function
host_device_variables.cu:114: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:115: KIND #20091-D: a __device__ variable "weights" cannot be directly read in a host function
host_device_variables.cu:116: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:118: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:119: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:120: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:122: KIND #20092-D: a __device__ variable "scale<int>" cannot be directly written in a host function
host_device_variables.cu:123: KIND #20091-D: a __device__ variable "scale<int>" cannot be directly read in a host function
host_device_variables.cu:123: KIND #20091-D: a __device__ variable "scale<int>" cannot be directly read in a host function
host_device_variables.cu:124: KIND #20091-D: a __device__ variable "scale<float>" cannot be directly read in a host function
host_device_variables.cu:124: KIND #20092-D: a __device__ variable "scale<float>" cannot be directly written in a host function
host_device_variables.cu:125: KIND #20091-D: a __constant__ variable "factor<float>" cannot be directly read in a host function
host_device_variables.cu:126: KIND #20092-D: a __device__ variable "grid::slots<int>" cannot be directly written in a host function
host_device_variables.cu:127: KIND #20091-D: a __device__ variable "grid::slots<int>" cannot be directly read in a host function
host_device_variables.cu:136: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:137: KIND #20092-D: a __device__ variable "hits" cannot be directly written in a host function
host_device_variables.cu:141: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:144: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:157: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:160: KIND #20092-D: a __device__ variable "hits" cannot be directly written in a host function
host_device_variables.cu:165: KIND #20092-D: a __device__ variable "hits" cannot be directly written in a host function
host_device_variables.cu:166: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:185: KIND #20091-D: a __device__ variable "params" cannot be directly read in a host function
host_device_variables.cu:194: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function
host_device_variables.cu:200: KIND #20091-D: a __device__ variable "hits" cannot be directly read in a host function'
step host_access "$nvcc" -c -o host_access.o "$d/host_device_variables.cu" &&
  if [ "$(host_access "$work/host_access.log" warning)" = \
    "$(printf '%s\n' "$host_access_want" | sed 's/KIND/warning/')" ]; then
    echo "PASS: warnings #20091-D and #20092-D"
  else
    fail "warnings #20091-D and #20092-D: got"
    sed 's/^/  | /' "$work/host_access.log" | head -20
  fi
for quiet in "-w" "-diag-suppress 20092"; do
  # shellcheck disable=SC2086 # the option's words
  step host_access_quiet "$nvcc" $quiet -c -o host_access.o \
    "$d/host_device_variables.cu" &&
    if [ "$(host_access "$work/host_access_quiet.log" warning)" = \
      "$(printf '%s\n' "$host_access_want" | sed -n 's/KIND/warning/p' |
        if [ "$quiet" = "-diag-suppress 20092" ]; then grep 20091-D; fi)" ]; then
      echo "PASS: $quiet silences warnings #20091-D and #20092-D as nvcc"
    else
      fail "$quiet (#20091-D, #20092-D): got"
      sed 's/^/  | /' "$work/host_access_quiet.log" | head -20
    fi
done
rm -f "$work/host_access_error.o"
if (cd "$work" && "$nvcc" -Werror all-warnings -c -o host_access_error.o \
  "$d/host_device_variables.cu") >"$work/host_access_error.log" 2>&1; then
  fail "-Werror all-warnings took warnings #20091-D and #20092-D"
elif [ "$(host_access "$work/host_access_error.log" error)" = \
  "$(printf '%s\n' "$host_access_want" | sed 's/KIND/error/')" ] &&
  [ ! -e "$work/host_access_error.o" ]; then
  echo "PASS: -Werror all-warnings makes warnings #20091-D and #20092-D errors"
else
  fail "-Werror all-warnings (#20091-D): $(head -3 "$work/host_access_error.log")"
fi

# Member functions defaulted on their first declaration with __host__ or
# __device__ written on them (tests/driver/nvcc_warnings/
# defaulted_spaces.cu): warning #20012-D at each qualifier, in order, the
# unit's list given twice (nvcc's device compile, then its host compile),
# as nvcc 13.0 gives them but for the path, in nested, local and template
# classes too, none at a destructor virtual through its base; the program
# runs;
# -diag-suppress 20012 silences them (-w and -Werror all-warnings act on
# every numbered warning alike, tested above).
defaulted() { # LOG KIND: the #20012-D lines of a compile, in order
  sed -n "s|^.*/\(defaulted_spaces.cu:.*$2 #20012-D: .*\)\$|\1|p" "$1"
}
defaulted_once='defaulted_spaces.cu:13: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("vec3") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:13: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("vec3") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:15: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("vec3") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:16: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("operator=") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:17: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("~vec3") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:17: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("~vec3") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:21: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("Shape") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:21: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("Shape") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:30: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("Cell") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:30: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("Cell") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:46: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("operator=") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:49: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("~Flat") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:52: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("~Holder") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:54: KIND #20012-D: __host__ annotation is ignored on a non-virtual function("Slot") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:54: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("Slot") that is explicitly defaulted on its first declaration
defaulted_spaces.cu:74: KIND #20012-D: __device__ annotation is ignored on a non-virtual function("Local") that is explicitly defaulted on its first declaration'
defaulted_want() { # KIND
  printf '%s\n%s\n' "$defaulted_once" "$defaulted_once" | sed "s/KIND/$1/"
}
step defaulted "$nvcc" -o defaulted "$d/defaulted_spaces.cu" &&
  passes "defaulted members with execution spaces run" ./defaulted &&
  if [ "$(defaulted "$work/defaulted.log" warning)" = "$(defaulted_want warning)" ]; then
    echo "PASS: warning #20012-D, twice as nvcc gives it"
  else
    fail "warning #20012-D: got"
    sed 's/^/  | /' "$work/defaulted.log" | head -30
  fi
step defaulted_quiet "$nvcc" -diag-suppress 20012 -c -o defaulted.o \
  "$d/defaulted_spaces.cu" &&
  if [ -z "$(defaulted "$work/defaulted_quiet.log" warning)" ]; then
    echo "PASS: -diag-suppress 20012 silences warning #20012-D"
  else
    fail "-diag-suppress 20012: got"
    sed 's/^/  | /' "$work/defaulted_quiet.log" | head -20
  fi

# A `return;` of a device-only function returning a reference or a deduced
# type (tests/driver/nvcc_warnings/device_bare_return_reference.cu) builds
# and runs, with warning #117-D at those lines, as nvcc 13.0 gives it; a
# read through the reference (-DREAD_UNSET) fails the launch with
# cudaErrorIllegalAddress and a report naming the unset reference.
device_ref_want='16 cell
21 count_at
26 moved
31 typed
37 picked
42 chosen
47 scaled
53 Particle::weight
58 Particle::heavier'
device_ref() { # LOG: its #117-D warnings, "line name", one a line
  sed -n 's|^.*/device_bare_return_reference.cu:\([0-9]*\): warning #117-D: non-void function "\(.*\)" should return a value$|\1 \2|p' "$1"
}
step device_bare_reference "$nvcc" -o device_bare_reference \
  "$d/device_bare_return_reference.cu" &&
  passes "a reference-returning device function's return; builds and runs" \
    ./device_bare_reference &&
  if [ "$(device_ref "$work/device_bare_reference.log")" = "$device_ref_want" ]; then
    echo "PASS: warning #117-D at the reference-returning functions' return;"
  else
    fail "warning #117-D (references): got"
    sed 's/^/  | /' "$work/device_bare_reference.log" | head -20
  fi
step device_bare_unset "$nvcc" -DREAD_UNSET -o device_bare_unset \
  "$d/device_bare_return_reference.cu" &&
  if (cd "$work" && CUEMU_QUIET=0 ./device_bare_unset) \
    >"$work/device_bare_unset.run" 2>&1; then
    fail "a read through the unset reference ran"
  elif grep -q 'invalid memory access through the reference returned by a `return;` without a value' \
    "$work/device_bare_unset.run" &&
    grep -q 'device_bare_return_reference.cu:7[0-9]' "$work/device_bare_unset.run" &&
    grep -q 'launch failed: cudaErrorIllegalAddress' "$work/device_bare_unset.run"; then
    echo "PASS: a read through the unset reference fails the launch"
  else
    fail "a read through the unset reference: $(head -5 "$work/device_bare_unset.run")"
  fi

# A `return;` after a return with a value in device function templates, an
# overload set and a class template's members whose return type is deduced
# (tests/driver/nvcc_warnings/device_bare_return_deduced.cu) builds and
# runs, with warning #117-D at the overload set's functions, named as nvcc
# 13.0 names them (the later one with its parameters' types), and at a
# function of an array parameter; none at the templates' (nvcc names each
# instance).
device_deduced() { # LOG: its #117-D warnings, "line name", one a line
  sed -n 's|^.*/device_bare_return_deduced.cu:\([0-9]*\): warning #117-D: non-void function "\(.*\)" should return a value$|\1 \2|p' "$1"
}
step device_bare_deduced "$nvcc" -o device_bare_deduced \
  "$d/device_bare_return_deduced.cu" &&
  passes "templates' and overloads' deduced types with return; build and run" \
    ./device_bare_deduced &&
  if [ "$(device_deduced "$work/device_bare_deduced.log")" = '30 weight
35 weight(float, int)
56 slot' ]; then
    echo "PASS: warning #117-D at the overload set's return;"
  else
    fail "warning #117-D (deduced types of templates and overloads): got"
    sed 's/^/  | /' "$work/device_bare_deduced.log" | head -20
  fi

# nv_diag_error makes #20037-D an error without the number, even under -w;
# nv_diag_warning and nv_diag_default give back the command line's level.
for case in "|14 error,16 warning #20037-D,18 warning #20037-D,20 warning #20037-D" \
  "-w|14 error" \
  "-Werror all-warnings|14 error,16 error #20037-D,18 error #20037-D,20 error #20037-D"; do
  options=${case%%|*}
  rm -f "$work/levels.o"
  # shellcheck disable=SC2086 # the options' words
  (cd "$work" && "$nvcc" $options -c -o levels.o \
    "$d/redeclared_pragma_levels.cu") >"$work/levels.log" 2>&1
  status=$?
  got=$(sed -n 's|^.*/redeclared_pragma_levels.cu:\([0-9]*\): \(.*\): a __device__ function(.*$|\1 \2|p' \
    "$work/levels.log" | paste -sd, -)
  if [ $status = 0 ] || [ -e "$work/levels.o" ]; then
    fail "nv_diag_error with '$options': took the compile"
  elif [ "$got" = "${case#*|}" ]; then
    echo "PASS: nv_diag pragmas' levels with '$options' as nvcc"
  else
    fail "nv_diag pragmas' levels with '$options': got"
    sed 's/^/  | /' "$work/levels.log" | head -20
  fi
done

if (cd "$work" && "$nvcc" -Werror=foo -c -o foo.o "$d/main.cu") \
  >"$work/foo.log" 2>&1; then
  fail "-Werror=foo was taken"
elif grep -q "Value 'foo' is not defined for option 'Werror'" "$work/foo.log"; then
  echo "PASS: -Werror=foo is refused as nvcc refuses it"
else
  fail "-Werror=foo: unexpected error: $(head -3 "$work/foo.log")"
fi

real=$(find_nvcc)
if [ -n "$real" ]; then
  (cd "$work" && mkdir nv && cd nv &&
    nvcc_build driver_nvcc_warnings.sh:warnings "$real" -Wdefault-stream-launch \
      -Wmissing-launch-bounds -c -o nv.o "$d/main.cu" &&
    nvcc_build driver_nvcc_warnings.sh:redeclared_pragmas "$real" -c \
      -o nv_pragmas.o "$d/redeclared_pragmas.cu" &&
    nvcc_build driver_nvcc_warnings.sh:host_redeclared "$real" \
      -o nv_host_redeclared "$d/host_redeclared.cu" &&
    nvcc_build driver_nvcc_warnings.sh:device_redeclared "$real" \
      -o nv_device_redeclared "$d/device_redeclared.cu" &&
    nvcc_build driver_nvcc_warnings.sh:main_bare_return "$real" \
      -o nv_main_bare_return "$d/main_bare_return.cu" &&
    nvcc_build driver_nvcc_warnings.sh:main_bare_return_20 "$real" \
      -std=c++20 -o nv_main_bare_return_20 "$d/main_bare_return.cu" &&
    nvcc_build driver_nvcc_warnings.sh:device_bare_return "$real" \
      -o nv_device_bare_return "$d/device_bare_return.cu" &&
    nvcc_build driver_nvcc_warnings.sh:host_device_variables "$real" \
      -c -o nv_host_access.o "$d/host_device_variables.cu" &&
    nvcc_build driver_nvcc_warnings.sh:defaulted_spaces "$real" \
      -o nv_defaulted "$d/defaulted_spaces.cu" &&
    nvcc_build driver_nvcc_warnings.sh:device_bare_return_reference "$real" \
      -o nv_device_bare_reference "$d/device_bare_return_reference.cu" &&
    nvcc_build driver_nvcc_warnings.sh:device_bare_deduced "$real" \
      -o nv_device_bare_deduced "$d/device_bare_return_deduced.cu" &&
    nvcc_build driver_nvcc_warnings.sh:device_bare_unset "$real" \
      -DREAD_UNSET -o nv_device_bare_unset "$d/device_bare_return_reference.cu") >"$work/nvcc.log" 2>&1 ||
    fail "nvcc refuses a command of this test: $(tail -5 "$work/nvcc.log")"
  if (cd "$work" && "$real" -w -c -o nv_levels.o \
    "$d/redeclared_pragma_levels.cu") >"$work/nv_levels.log" 2>&1; then
    fail "nvcc builds redeclared_pragma_levels.cu"
  elif [ "$(grep -c 'redeclared_pragma_levels.cu(14): error: a __device__' \
    "$work/nv_levels.log")" = 1 ]; then
    echo "PASS: nvcc refuses redeclared_pragma_levels.cu at line 14"
  else
    fail "nvcc refuses redeclared_pragma_levels.cu otherwise:"
    sed 's/^/  | /' "$work/nv_levels.log" | head -10
  fi
fi

rm -rf "$work"
exit "$failed"
