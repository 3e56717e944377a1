#!/bin/sh
# driver_internal_headers.sh: CUDA's internal headers that programs still
# include by name (device_functions.h, math_functions.h,
# device_double_functions.h, common_functions.h, host_defines.h) make nvcc
# 13 warn "NAME is an internal header file and must not be used directly.
# ..." at the #include; cuemu-nvcc gave no warning (and, for the last three,
# did not compile: tests/programs/trial/legacy_internal_headers.cu). Checked: each
# header's warning once, with nvcc's text; none for a program that includes
# cuda_runtime.h alone, nor with -w; the program still builds and runs. With
# nvcc present its build of the same file is recorded (nvcc_build).
# The same headers by their crt/ path (and crt/sm_70_rt.h, crt/host_config.h,
# crt/mma.h: tests/programs/trial/crt_internal_headers.cu) did not compile;
# nvcc 13 warns "crt/NAME is an internal header file and must not be used
# directly.  Please use ... instead." once for each, which is checked the
# same way. crt/sm_80_rt.h and crt/sm_90_rt.h clashed with cuemu's own
# definitions (tests/programs/trial/crt_sm80_sm90_headers.cu, built for
# sm_90 as nvcc needs to declare their names): one warning for each too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_internal_headers.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_internal_headers.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/programs/trial/legacy_internal_headers.cu
plain=$srcdir/tests/programs/trial/host_min_max.cu
crt=$srcdir/tests/programs/trial/crt_internal_headers.cu
crt_sm=$srcdir/tests/programs/trial/crt_sm80_sm90_headers.cu

# The internal headers a compile's log warns about, sorted, one a line.
warned() {
  sed -n 's/^.*warning: #warning "\([a-z_]*\.h\) is an internal header file and must not be used directly.  This file will be removed in a future CUDA release.  Please use cuda_runtime_api.h or cuda_runtime.h instead." \[-Wcpp\]$/\1/p' \
    "$1" | LC_ALL=C sort
}

# The crt/ headers a compile's log warns about, with the header nvcc names
# instead, sorted, one a line.
warned_crt() {
  sed -n 's/^.*warning: #warning "crt\/\([a-z0-9_]*\.h\) is an internal header file and must not be used directly.  Please use \(.*\) instead." \[-Wcpp\]$/\1: \2/p' \
    "$1" | LC_ALL=C sort
}

want='common_functions.h
device_double_functions.h
device_functions.h
host_defines.h
math_functions.h'

# runs_and_warns NAME WHAT FILTER WANT OPTION... SOURCE: cuemu-nvcc builds
# SOURCE into NAME, which runs and passes ("WHAT builds and runs"), and
# FILTER (warned or warned_crt) finds WANT in the compile's log.
runs_and_warns() {
  rw_name=$1 rw_what=$2 rw_filter=$3 rw_want=$4
  shift 4
  step "$rw_name" "$nvcc" -o "$rw_name" "$@" &&
    passes "$rw_what builds and runs" "./$rw_name" &&
    if [ "$("$rw_filter" "$work/$rw_name.log")" = "$rw_want" ]; then
      echo "PASS: $rw_name: the warnings of nvcc, in its text"
    else
      fail "$rw_name: warnings: got"
      sed 's/^/  | /' "$work/$rw_name.log" | head -20
    fi
}

runs_and_warns legacy "a program including the internal headers" warned \
  "$want" "$src"

step quiet "$nvcc" -w -c -o quiet.o "$src" &&
  if [ -z "$(warned "$work/quiet.log")" ]; then
    echo "PASS: -w: no warning"
  else
    fail "-w still warns"
  fi

step plain "$nvcc" -c -o plain.o "$plain" &&
  if grep -q 'internal header' "$work/plain.log"; then
    fail "a program including cuda_runtime.h alone is warned"
  else
    echo "PASS: cuda_runtime.h alone: no warning"
  fi

want_crt='common_functions.h: cuda_runtime_api.h or cuda_runtime.h
device_double_functions.h: cuda_runtime_api.h or cuda_runtime.h
device_functions.h: cuda_runtime_api.h or cuda_runtime.h
host_config.h: cuda_runtime_api.h or cuda_runtime.h
host_defines.h: cuda_runtime_api.h or cuda_runtime.h
math_functions.h: cuda_runtime_api.h or cuda_runtime.h
mma.h: mma.h
sm_70_rt.h: cuda_runtime_api.h or cuda_runtime.h'

runs_and_warns crt "a program including the crt headers" warned_crt \
  "$want_crt" "$crt"

step crt-quiet "$nvcc" -w -c -o crt_quiet.o "$crt" &&
  if [ -z "$(warned_crt "$work/crt-quiet.log")" ]; then
    echo "PASS: -w: no crt/ warning"
  else
    fail "-w still warns about crt/ headers"
  fi

want_crt_sm='sm_80_rt.h: cuda_runtime_api.h or cuda_runtime.h
sm_90_rt.h: cuda_runtime_api.h or cuda_runtime.h'

runs_and_warns crt_sm "a program including the sm_80 and sm_90 crt headers" \
  warned_crt "$want_crt_sm" -arch=sm_90 "$crt_sm"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc-build nvcc_build driver_internal_headers.sh:legacy "$real" -c \
    -o nv.o "$src" && echo "PASS: nvcc builds legacy_internal_headers.cu"
  step nvcc-crt nvcc_build driver_internal_headers.sh:crt "$real" -c \
    -o nv_crt.o "$crt" && echo "PASS: nvcc builds crt_internal_headers.cu"
  step nvcc-crt-sm nvcc_build driver_internal_headers.sh:crt_sm "$real" \
    -arch=sm_90 -c -o nv_crt_sm.o "$crt_sm" &&
    echo "PASS: nvcc builds crt_sm80_sm90_headers.cu"
fi

rm -rf "$work"
exit "$failed"
