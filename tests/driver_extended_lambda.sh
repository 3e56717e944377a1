#!/bin/sh
# driver_extended_lambda.sh: nvcc's restrictions on extended lambdas (the
# CUDA programming guide's "Extended Lambda Restrictions"),
# refused by cuemu-nvcc at the user's file and line with nvcc's message: a
# constexpr extended lambda (tests/driver/cc13d/lambda_constexpr.cu), an
# extended lambda inside a generic lambda (lambda_in_generic.cu), a generic
# __host__ __device__ lambda (lambda_generic_hd.cu), captures by reference
# (lambda_by_reference.cu, REFUSE=1..3); the forms next to them
# that nvcc accepts build and run (lambda_allowed.cu), and so do lambdas in
# a __device__ lambda's body (lambda_device_body.cu); those on the
# enclosing function (lambda_parent.cu); annotated lambdas without
# --extended-lambda (lambda_no_flag.cu). With nvcc present,
# it refuses and accepts the same, at the same lines (one build that
# scripts/nvcc_verified.py records in tests/nvcc_builds.txt).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/cc13d
work=$(mktemp -d)
failed=0
real=$(find_nvcc)
# nvcc_case KIND FILE LINE MESSAGE FLAGS...: what nvcc must do with
# $d/FILE.cu and FLAGS (refuses: with MESSAGE at LINE; also: the previous
# case's output holds an error at LINE too; accepts), one line of
# $nvcc_cases, which the recorded nvcc build at the end runs.
nvcc_cases=
nvcc_case() {
  nvcc_line=$(printf '%s|%s|%s|%s|%s' "$1" "$2" "$3" "$4" "$(shift 4; echo "$*")")
  nvcc_cases="$nvcc_cases${nvcc_cases:+
}$nvcc_line"
}

# refused FILE LINE MESSAGE
refused() {
  name=$1
  line=$2
  message=$3
  if "$cuemu" --extended-lambda -c -o "$work/$name.o" "$d/$name.cu" \
    >"$work/$name.log" 2>&1; then
    fail "$name.cu compiled"
  elif grep -qF "$name.cu:$line: error: $message" "$work/$name.log"; then
    echo "PASS: $name.cu:$line: $message"
  else
    fail "$name.cu: $(cat "$work/$name.log")"
  fi
  nvcc_case refuses "$name" "$line" "$message" --extended-lambda
}
refused lambda_constexpr 8 \
  "The constexpr specifier is not allowed for an extended __device__ lambda"
refused lambda_in_generic 10 \
  'An extended __device__ lambda cannot be defined inside a generic lambda expression("operator()").'
refused lambda_generic_hd 8 \
  "__host__ __device__ extended lambdas cannot be generic lambdas"

# refused_case FILE CASE LINE MESSAGE: FILE.cu with -DREFUSE=CASE is
# refused at LINE with MESSAGE.
refused_case() {
  file=$1
  case_=$2
  line=$3
  message=$4
  if "$cuemu" --extended-lambda -DREFUSE="$case_" -c -o "$work/$file.o" \
    "$d/$file.cu" >"$work/$file$case_.log" 2>&1; then
    fail "$file.cu REFUSE=$case_ compiled"
  elif grep -qF "$file.cu:$line: error: $message" "$work/$file$case_.log"; then
    echo "PASS: $file.cu:$line: $message"
  else
    fail "$file.cu REFUSE=$case_: $(cat "$work/$file$case_.log")"
  fi
  nvcc_case refuses "$file" "$line" "$message" --extended-lambda \
    -DREFUSE="$case_"
}
by_reference() {
  refused_case lambda_by_reference "$@"
}

# Captures by reference (lambda_by_reference.cu, one case per value of
# REFUSE, with refused_case above; cuemu-nvcc accepted them, and a kernel
# launched after the host's frame was gone would read it); without REFUSE,
# the captures nvcc accepts build and run.
by_reference 1 26 "An extended __device__ lambda cannot capture variables by reference"
by_reference 2 28 "An extended __host__ __device__ lambda cannot capture variables by reference"
by_reference 3 30 "An extended __device__ lambda cannot capture variables by reference"
if step by_reference_allowed "$cuemu" --extended-lambda -o byref \
  "$d/lambda_by_reference.cu"; then
  out=$("$work/byref" 2>&1)
  if [ "$out" = "6 11 2 2" ]; then
    echo "PASS: the captures that nvcc accepts build and run: $out"
  else
    fail "lambda_by_reference: '$out'"
  fi
fi
nvcc_case accepts lambda_by_reference "" "" --extended-lambda

# The restrictions on the enclosing function (lambda_parent.cu, one case
# per value of REFUSE), each at its line with nvcc 13's message.
parent() {
  refused_case lambda_parent "$@"
}
fn='The enclosing parent function'
parent 1 11 "$fn (\"deduced\") for an extended __device__ lambda must not have deduced return type"
parent 2 18 "$fn (\"deduced_too\") for an extended __host__ __device__ lambda must not have deduced return type"
parent 3 27 "$fn (\"run\") for an extended __device__ lambda cannot have private or protected access within its class"
parent 4 38 "$fn (\"run\") for an extended __device__ lambda cannot have private or protected access within its class"
parent 5 48 "$fn (\"run\") for an extended __device__ lambda must not be defined inside another function"
parent 6 58 "$fn (\"Launcher\") for an extended __device__ lambda must allow its address to be taken"
parent 7 68 "$fn (\"~Finisher\") for an extended __host__ __device__ lambda must allow its address to be taken"
parent 8 77 'An extended __device__ lambda cannot be defined inside a class ("Part") with private or protected access within another class'
parent 9 86 'An extended __device__ lambda cannot be defined inside an extended __host__ __device__  lambda expression("operator()").'
parent 10 105 "$fn (\"run\") for an extended __device__ lambda cannot have private or protected access within its class"
parent 11 116 "$fn (\"step\") for an extended __device__ lambda cannot have private or protected access within its class"
# Its forms that nvcc accepts build and run.
if step parent_allowed "$cuemu" --extended-lambda -o parent \
  "$d/lambda_parent.cu"; then
  out=$("$work/parent" 2>&1)
  if [ "$out" = "2 4 5 6 7" ]; then
    echo "PASS: the enclosing functions that nvcc accepts build and run: $out"
  else
    fail "lambda_parent: '$out'"
  fi
fi
nvcc_case accepts lambda_parent "" "" --extended-lambda

# Without --extended-lambda any annotated lambda is refused, in a kernel
# as in host code (nvcc names the kernel's first, at line 15); with
# --expt-extended-lambda the same file builds and runs.
if "$cuemu" -c -o "$work/no_flag.o" "$d/lambda_no_flag.cu" \
  >"$work/no_flag.log" 2>&1; then
  fail "lambda_no_flag.cu compiled without --extended-lambda"
elif grep -qF "lambda_no_flag.cu:15: error: __host__ or __device__ annotation on lambda requires --extended-lambda nvcc flag" \
  "$work/no_flag.log"; then
  echo "PASS: lambda_no_flag.cu:15: refused without --extended-lambda"
else
  fail "lambda_no_flag.cu: $(cat "$work/no_flag.log")"
fi
if step no_flag_allowed "$cuemu" --expt-extended-lambda -o no_flag \
  "$d/lambda_no_flag.cu"; then
  out=$("$work/no_flag" 2>&1)
  if [ "$out" = "4 9 16" ]; then
    echo "PASS: with --expt-extended-lambda it builds and runs: $out"
  else
    fail "lambda_no_flag: '$out'"
  fi
fi
# cuemu-run takes the flags too.
out=$("$builddir_abs/cuemu-run" "$d/lambda_no_flag.cu" 2>&1)
case $out in
*"lambda_no_flag.cu:15: error: __host__ or __device__ annotation"*)
  echo "PASS: cuemu-run refuses it without the flag" ;;
*) fail "cuemu-run without the flag: '$out'" ;;
esac
out=$("$builddir_abs/cuemu-run" --extended-lambda "$d/lambda_no_flag.cu" 2>&1)
if [ "$out" = "4 9 16" ]; then
  echo "PASS: cuemu-run --extended-lambda runs it: $out"
else
  fail "cuemu-run --extended-lambda: '$out'"
fi
nvcc_case refuses lambda_no_flag 15 \
  "__host__ or __device__ annotation on lambda requires --extended-lambda nvcc flag"
nvcc_case also lambda_no_flag 23 ""
nvcc_case accepts lambda_no_flag "" "" --expt-extended-lambda

if step allowed "$cuemu" --extended-lambda -o allowed "$d/lambda_allowed.cu"; then
  out=$("$work/allowed" 2>&1)
  if [ "$out" = "4 10 6" ]; then
    echo "PASS: the accepted forms build and run: $out"
  else
    fail "lambda_allowed: '$out'"
  fi
fi
nvcc_case accepts lambda_allowed "" "" --extended-lambda

# Lambdas in a __device__ lambda's body are device code: neither restriction
# applies (both were refused).
if step device_body "$cuemu" --extended-lambda -o device_body \
  "$d/lambda_device_body.cu"; then
  out=$("$work/device_body" 2>&1)
  if [ "$out" = "30 40 4 6" ]; then
    echo "PASS: lambdas in a __device__ lambda's body build and run: $out"
  else
    fail "lambda_device_body: '$out'"
  fi
fi
nvcc_case accepts lambda_device_body "" "" --extended-lambda

# nvcc's side: every case above in one recorded build
# (scripts/nvcc_verified.py), run again only when nvcc, a source or a case
# changes; the sources and the cases are words of its command, so they
# make its key.
if [ -n "$real" ]; then
  step nvcc nvcc_build driver_extended_lambda.sh:nvcc sh -c '
    real=$1 cases=$2 status=0
    shift 2
    printf "%s\n" "$cases" >"$PWD/nvcc_cases"
    while IFS="|" read -r kind name line message flags; do
      if [ "$kind" != also ]; then
        rm -f "$PWD/nv.log"
        "$real" -arch=sm_90 $flags -c -o "$PWD/nv.o" "$(dirname "$1")/$name.cu" \
          >"$PWD/nv.log" 2>&1
        rc=$?
      fi
      case $kind in
      accepts) [ $rc -eq 0 ] && continue ;;
      *) [ $rc -ne 0 ] &&
        grep -qF "$name.cu($line): error: $message" "$PWD/nv.log" && continue ;;
      esac
      echo "FAIL: nvcc on $name.cu ($kind, $line, $flags): $(cat "$PWD/nv.log")"
      status=1
    done <"$PWD/nvcc_cases"
    exit $status' sh "$real" "$nvcc_cases" \
    "$d/lambda_constexpr.cu" "$d/lambda_in_generic.cu" \
    "$d/lambda_generic_hd.cu" "$d/lambda_parent.cu" "$d/lambda_no_flag.cu" \
    "$d/lambda_allowed.cu" "$d/lambda_device_body.cu" \
    "$d/lambda_by_reference.cu" &&
    echo "PASS: nvcc refuses and accepts the same, at the same lines"
fi

rm -rf "$work"
exit $failed
