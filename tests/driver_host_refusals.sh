#!/bin/sh
# driver_host_refusals.sh: host code that nvcc refuses is refused by
# cuemu-nvcc too, at each line: calls of CUDA's device-only intrinsics
# (__int_as_float, __fdividef, __sinf, __float2int_rn, __popc, hsqrt,
# __hfma, the address-space predicates and conversions __isGlobal,
# __cvta_generic_to_shared, ...: CUDA declares them __device__ only),
# while the same
# intrinsics in a kernel and under __CUDA_ARCH__ in a __host__ __device__
# function, and the conversions that CUDA declares __host__ __device__ in
# host code, build and run; and
# the CUDA 12 forms of cudaMemPrefetchAsync and cudaMemAdvise (a device
# ordinal, the _v2 names), which CUDA 13's headers no longer have. With
# nvcc present, it is checked to agree line by line. Also: a shared
# library exports nothing of its unnamed namespaces (cudafe++ makes them
# hidden; docs/nvcc-checks.md). The same host calls in a unit that
# includes Thrust (host_intrinsics_cccl.cu) are refused by the translation
# (emulator/compile/cuemu_host_calls.c).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
file=$srcdir/tests/driver/cc13/host_intrinsics.cu
work=$(mktemp -d)
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
# The lines of host_intrinsics.cu with a host call (marked `refused`).
lines=$(grep -n '// refused$' "$file" | cut -d: -f1)

# refused SOURCE LABEL PATTERN WHAT: SOURCE (host_intrinsics.cu or a unit
# that includes it) does not compile, and its log names each refused line
# of host_intrinsics.cu with PATTERN; then, with -DDEVICE_ONLY_CALLS, it
# builds and runs. LABEL names the logs; WHAT the case in the messages.
refused() {
  if (cd "$work" && "$nvcc" -c -o x.o "$1") >"$work/$2.log" 2>&1; then
    fail "host calls of device-only intrinsics compile$4"
  else
    missing=
    for line in $lines; do
      grep -q "host_intrinsics.cu:$line:$3" "$work/$2.log" ||
        missing="$missing $line"
    done
    if [ -z "$missing" ]; then
      echo "PASS: each host call of a device-only intrinsic is refused at its line$4"
    else
      fail "host calls not refused at lines$missing$4: $(cat "$work/$2.log")"
    fi
  fi
  if (cd "$work" && "$nvcc" -DDEVICE_ONLY_CALLS -o "$2.ok" "$1") >"$work/$2.ok.log" 2>&1 &&
    "$work/$2.ok" >"$work/$2.out" 2>&1 && grep -qx PASS "$work/$2.out"; then
    echo "PASS: the intrinsics in kernel code and under __CUDA_ARCH__ build and run$4"
  else
    fail "device calls$4: $(cat "$work/$2.ok.log" "$work/$2.out" 2>/dev/null)"
  fi
}

refused "$file" host \
  ".*calling a __device__ function from a __host__ function is not allowed" ""
# The same unit including Thrust, whose host pass reads the whole prelude
# (the shims' definitions): the translation refuses the same calls, with
# nvcc's message naming the function and its caller (clang++ compiles it,
# as every unit with CCCL).
refused "$srcdir/tests/driver/cc13/host_intrinsics_cccl.cu" cccl \
  " error: calling a __device__ function(\"[_a-zA-Z0-9]*\") from a __host__ function(\"host_calls\") is not allowed" \
  " (a unit that includes Thrust)"

# clang++ as the host compiler: the same unit builds and runs (clang
# refuses an `error` attribute on __sinf and the other names that glibc
# declares first: cuemu_host_decls.h's CUEMU_DEVICE_ONLY_LIBM).
if command -v clang++ >/dev/null 2>&1; then
  if (cd "$work" && "$nvcc" -ccbin clang++ -DDEVICE_ONLY_CALLS -o okc "$file") \
    >"$work/okc.log" 2>&1 && "$work/okc" >"$work/okc.out" 2>&1 &&
    grep -qx PASS "$work/okc.out"; then
    echo "PASS: with clang++ as the host compiler, the same unit builds and runs"
  else
    fail "clang++: $(cat "$work/okc.log" "$work/okc.out" 2>/dev/null)"
  fi
fi

forms=$srcdir/tests/driver/cc13/cuda12_managed_forms.cu
if (cd "$work" && "$nvcc" -c -o x.o "$forms") >"$work/forms.log" 2>&1; then
  fail "the CUDA 12 forms of cudaMemPrefetchAsync and cudaMemAdvise compile"
elif [ "$(grep -c 'cuda12_managed_forms.cu:1[0-3]:.*error:' "$work/forms.log")" -eq 4 ] &&
  (cd "$work" && "$nvcc" -DCUDA13_FORMS -c -o x.o "$forms") >"$work/forms13.log" 2>&1; then
  echo "PASS: the CUDA 12 forms of cudaMemPrefetchAsync and cudaMemAdvise are refused, as with CUDA 13's headers"
else
  fail "CUDA 12 forms: $(cat "$work/forms.log" "$work/forms13.log" 2>/dev/null)"
fi

lib=$srcdir/tests/driver/cc13/unnamed_export.cu
if (cd "$work" && "$nvcc" -shared -Xcompiler -fPIC -isystem "$srcdir/tests/driver/cc13/inc" \
  -o libu.so "$lib") >"$work/lib.log" 2>&1 &&
  nm -D --defined-only "$work/libu.so" >"$work/lib.syms" 2>&1 &&
  grep -q "_Z3apiv" "$work/lib.syms" &&
  ! grep -q -e unnamed_value -e unnamed_counter -e own_value "$work/lib.syms"; then
  echo "PASS: a shared library exports nothing of its unnamed namespaces"
else
  fail "unnamed namespaces of a shared library: $(cat "$work/lib.log" "$work/lib.syms" 2>/dev/null)"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  (cd "$work" && "$real" -arch=sm_90 -c -o x.o "$file") >"$work/real.log" 2>&1
  for line in $lines; do
    grep -q "host_intrinsics.cu($line): error: calling a __device__ function" \
      "$work/real.log" || fail "nvcc accepts the host call at line $line: the test is wrong"
  done
  (cd "$work" && "$real" -arch=sm_90 -DDEVICE_ONLY_CALLS -c -o x.o "$file") \
    >/dev/null 2>&1 || fail "nvcc refuses -DDEVICE_ONLY_CALLS: the test is wrong"
  (cd "$work" && "$real" -arch=sm_90 -c -o x.o "$forms") >"$work/real.log" 2>&1
  for line in 10 11 12 13; do
    grep -q "cuda12_managed_forms.cu($line): error" "$work/real.log" ||
      fail "nvcc accepts the CUDA 12 form at line $line: the test is wrong"
  done
  (cd "$work" && "$real" -arch=sm_90 -DCUDA13_FORMS -c -o x.o "$forms") \
    >/dev/null 2>&1 || fail "nvcc refuses -DCUDA13_FORMS: the test is wrong"
fi

rm -rf "$work"
exit $failed
