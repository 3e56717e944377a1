#!/bin/sh
# drvapi.sh: the driver API over cuemu modules (issue 16): a module built
# with `cuemu-nvcc -fatbin` (and the -ptx, -cubin, --fatbin and `-o x.ptx`
# forms) is loaded by a host .cpp program linked with -lcuda
# (tests/driver/drvapi/main.cpp) with cuModuleLoad and cuModuleLoadDataEx;
# a real NVIDIA image is refused with a clear message; a module of nvcc's
# code keeps the host's uint64_t. With nvcc present,
# the same sources build with it (the module and the host object). Run by
# `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing drvapi.sh "$nvcc is not built"

work=$(cd "$builddir" && pwd)/tests/tmp/drvapi.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/driver/drvapi
failed=0



# The explicit instantiation of a kernel template is named for cuemu (see
# docs/driver-api.md).
names="--name-expr times<int,3>"

# shellcheck disable=SC2086 # $names are words
step fatbin "$nvcc" -fatbin $names "$d/kernels.cu" &&
  step ptx "$nvcc" -ptx -arch=sm_90 $names "$d/kernels.cu" &&
  step cubin "$nvcc" --cubin -arch=sm_90 $names -o k80.cubin "$d/kernels.cu" &&
  step fatbin-long "$nvcc" --fatbin $names -o other.ptx "$d/kernels.cu" &&
  step host "$nvcc" -O2 -o drv "$d/main.cpp" -lcuda &&
  for f in kernels.fatbin kernels.ptx k80.cubin other.ptx; do
    [ -f "$work/$f" ] || fail "cuemu-nvcc wrote no $f"
  done &&
  passes "driver API, cuModuleLoad of a -fatbin module" \
    env CUEMU_QUIET=1 ./drv kernels.fatbin kernels.ptx &&
  passes "driver API, a -cubin module loaded from memory" \
    env CUEMU_QUIET=1 ./drv k80.cubin other.ptx

# nvcc's code keeps the host's fixed-width types in a module
# (uint64_t is unsigned long), which NVRTC sources do not.
for form in -fatbin -ptx -cubin; do
  step "host-types$form" "$nvcc" $form -arch=sm_90 -o "host_types$form" \
    "$d/host_fixed_width.cu" &&
    echo "PASS: $form keeps the host's uint64_t"
done

# An NVRTC-style module whose <stdint.h> is read before cuda_runtime.h
# keeps glibc's types (the renames would leave <cstdint> without them).
step module-pre-stdint "$nvcc" --module -Xcompiler -include,stdint.h \
  -o pre_stdint.so "$d/host_fixed_width.cu" &&
  echo "PASS: --module after -Xcompiler -include stdint.h"

# PTX of nvcc's is JIT-compiled (tests/programs/drv/ptx_text_modules.cu);
# one for a newer GPU than the device is refused as the driver's JIT
# refuses it, and a fatbinary of nvcc's, naming what it is.
printf '//\n.version 8.0\n.target sm_100\n' >"$work/real.ptx"
printf '\120\355\125\272\001\000\020\000' >"$work/real.fatbin"
cat >"$work/load.cpp" <<'EOT'
#include <cuda.h>
#include <cstdio>
int main(int, char **argv) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  cuInit(0);
  cuDeviceGet(&dev, 0);
  cuCtxCreate(&ctx, nullptr, 0, dev);
  CUresult r = cuModuleLoad(&mod, argv[1]);
  const char *name = "";
  cuGetErrorName(r, &name);
  std::printf("%s\n", name);
  return 0;
}
EOT
if step load "$nvcc" -o load load.cpp -lcuda; then
  (cd "$work" && CUEMU_QUIET=0 ./load real.ptx) >"$work/load.out" 2>&1
  if grep -q CUDA_ERROR_INVALID_PTX "$work/load.out" &&
    grep -q "SM version specified by .target (sm_100)" "$work/load.out"; then
    echo "PASS: PTX of nvcc's for a newer GPU is refused with ptxas's message"
  else
    fail "a PTX text module for sm_100: its output:"
    sed 's/^/  | /' "$work/load.out"
  fi
  (cd "$work" && CUEMU_QUIET=0 ./load real.fatbin) >"$work/load.out" 2>&1
  if grep -q CUDA_ERROR_INVALID_IMAGE "$work/load.out" &&
    grep -q "NVIDIA fatbinary" "$work/load.out"; then
    echo "PASS: a fatbinary of nvcc's is refused with a message"
  else
    fail "a fatbinary of nvcc's: its output:"
    sed 's/^/  | /' "$work/load.out"
  fi
fi

# A module whose images the device cannot run is CUDA_ERROR_NO_BINARY_FOR_GPU
# with a report naming them: a cubin runs on its own major version only
# (sm_100's on 10.x, sm_80's on 8.x), a fat binary wherever one image runs.
# load_image FILE DEVICE EXPECTED OPTIONS...
load_image() {
  file=$1
  device=$2
  want=$3
  shift 3
  if step "image-$file" "$nvcc" "$@" -o "$file" "$d/kernels.cu"; then
    got=$(cd "$work" && CUEMU_QUIET=0 CUEMU_DEVICE=sm=$device ./load "$file" 2>&1)
    case $got in
    *"$want"*) echo "PASS: $file on $device: $want" ;;
    *) fail "$file on sm=$device: '$got', expected $want" ;;
    esac
  fi
}
if [ -x "$work/load" ]; then
  load_image k100.cubin 90 CUDA_ERROR_NO_BINARY_FOR_GPU -cubin -arch=sm_100
  load_image k100.cubin 90 "among the module's sm_100 " -cubin -arch=sm_100
  load_image k100.cubin 100 CUDA_SUCCESS -cubin -arch=sm_100
  load_image k80.cubin 90 CUDA_ERROR_NO_BINARY_FOR_GPU -cubin -arch=sm_80
  load_image k80.cubin 86 CUDA_SUCCESS -cubin -arch=sm_80
  load_image k80-100.fatbin 90 CUDA_ERROR_NO_BINARY_FOR_GPU -fatbin \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_100,code=sm_100
  load_image k80ptx-100.fatbin 90 CUDA_SUCCESS -fatbin \
    -gencode arch=compute_80,code=compute_80 \
    -gencode arch=compute_100,code=sm_100
fi

# The same sources with the real toolkit.
real=$(find_nvcc)
if [ -n "$real" ]; then
  step nvcc-fatbin "$real" -fatbin -arch=sm_90 -o real.fatbin "$d/kernels.cu" &&
    step nvcc-host "$real" -c -o main.o "$d/main.cpp" &&
    step nvcc-host-types "$real" -fatbin -arch=sm_90 -o host_types.fatbin \
      "$d/host_fixed_width.cu" &&
    echo "PASS: the sources build with nvcc"
fi

rm -rf "$work"
echo "drvapi.sh: $failed failed"
[ "$failed" -eq 0 ]
