#!/bin/sh
# driver_extended_lambda.sh: nvcc's restrictions on extended lambdas (the
# CUDA programming guide's "Extended Lambda Restrictions"),
# refused by cuemu-nvcc at the user's file and line with nvcc's message: a
# constexpr extended lambda (tests/driver/cc13d/lambda_constexpr.cu), an
# extended lambda inside a generic lambda (lambda_in_generic.cu), a generic
# __host__ __device__ lambda (lambda_generic_hd.cu); the forms next to them
# that nvcc accepts build and run (lambda_allowed.cu), and so do lambdas in
# a __device__ lambda's body (lambda_device_body.cu); those on the
# enclosing function (lambda_parent.cu); annotated lambdas without
# --extended-lambda (lambda_no_flag.cu). With nvcc present,
# it refuses and accepts the same, at the same lines.
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
  if [ -n "$real" ]; then
    "$real" -arch=sm_90 --extended-lambda -c -o "$work/$name.nv.o" \
      "$d/$name.cu" >"$work/$name.nv.log" 2>&1
    grep -qF "$name.cu($line): error: $message" "$work/$name.nv.log" ||
      fail "nvcc on $name.cu: $(cat "$work/$name.nv.log")"
  fi
}
refused lambda_constexpr 8 \
  "The constexpr specifier is not allowed for an extended __device__ lambda"
refused lambda_in_generic 10 \
  'An extended __device__ lambda cannot be defined inside a generic lambda expression("operator()").'
refused lambda_generic_hd 8 \
  "__host__ __device__ extended lambdas cannot be generic lambdas"

# The restrictions on the enclosing function (lambda_parent.cu, one case
# per value of REFUSE), each at its line with nvcc 13's message.
parent() {
  case_=$1
  line=$2
  message=$3
  if "$cuemu" --extended-lambda -DREFUSE="$case_" -c -o "$work/parent.o" \
    "$d/lambda_parent.cu" >"$work/parent$case_.log" 2>&1; then
    fail "lambda_parent.cu REFUSE=$case_ compiled"
  elif grep -qF "lambda_parent.cu:$line: error: $message" \
    "$work/parent$case_.log"; then
    echo "PASS: lambda_parent.cu:$line: $message"
  else
    fail "lambda_parent.cu REFUSE=$case_: $(cat "$work/parent$case_.log")"
  fi
  if [ -n "$real" ]; then
    "$real" -arch=sm_90 --extended-lambda -DREFUSE="$case_" -c \
      -o "$work/parent.nv.o" "$d/lambda_parent.cu" \
      >"$work/parent$case_.nv.log" 2>&1
    grep -qF "lambda_parent.cu($line): error: $message" \
      "$work/parent$case_.nv.log" ||
      fail "nvcc on lambda_parent.cu REFUSE=$case_: $(cat "$work/parent$case_.nv.log")"
  fi
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
if [ -n "$real" ]; then
  step parent-nvcc "$real" -arch=sm_90 --extended-lambda -c -o parent.nv.o \
    "$d/lambda_parent.cu" && echo "PASS: nvcc accepts them too"
fi

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
if [ -n "$real" ]; then
  "$real" -arch=sm_90 -c -o "$work/no_flag.nv.o" "$d/lambda_no_flag.cu" \
    >"$work/no_flag.nv.log" 2>&1
  grep -qF "lambda_no_flag.cu(15): error: __host__ or __device__ annotation on lambda requires --extended-lambda nvcc flag" \
    "$work/no_flag.nv.log" && grep -qF "lambda_no_flag.cu(23): error:" \
    "$work/no_flag.nv.log" || fail "nvcc on lambda_no_flag.cu: $(cat "$work/no_flag.nv.log")"
  step no_flag-nvcc "$real" -arch=sm_90 --expt-extended-lambda -c \
    -o no_flag.nv.o "$d/lambda_no_flag.cu" && echo "PASS: nvcc agrees"
fi

if step allowed "$cuemu" --extended-lambda -o allowed "$d/lambda_allowed.cu"; then
  out=$("$work/allowed" 2>&1)
  if [ "$out" = "4 10 6" ]; then
    echo "PASS: the accepted forms build and run: $out"
  else
    fail "lambda_allowed: '$out'"
  fi
fi
if [ -n "$real" ]; then
  step allowed-nvcc "$real" -arch=sm_90 --extended-lambda -c -o allowed.o \
    "$d/lambda_allowed.cu" && echo "PASS: nvcc accepts them too"
fi

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
if [ -n "$real" ]; then
  step device_body-nvcc "$real" -arch=sm_90 --extended-lambda -c \
    -o device_body.o "$d/lambda_device_body.cu" &&
    echo "PASS: nvcc accepts them too"
fi

rm -rf "$work"
exit $failed
