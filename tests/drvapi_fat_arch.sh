#!/bin/sh
# drvapi_fat_arch.sh: a module of cuemu-nvcc -fatbin for several -gencode
# architectures runs, on each emulated device, the code of the image that
# a GPU's driver picks (docs/nvcc-checks.md, "One device pass per virtual
# architecture"): the highest cubin of the device's major version and a
# minor no higher, else the PTX of the highest architecture no newer, else
# none (CUDA_ERROR_NO_BINARY_FOR_GPU); its __CUDA_ARCH__ is that image's.
# tests/driver/fatarch/arch_kernels.cu's kernel stores __CUDA_ARCH__ and
# increments a __device__ counter; load_arch.cu loads it with cuModuleLoad
# and cuModuleLoadData. Before, every device ran the highest pass (900 on
# an 8.6 device). With nvcc present, both build with it too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing drvapi_fat_arch.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/drvapi_fat_arch.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/fatarch

step loader "$nvcc" -o load_arch "$d/load_arch.cu" -lcuda || {
  rm -rf "$work"
  exit 1
}

# expect FILE DEVICE WANTED: the loader's line for FILE on sm=DEVICE.
expect() {
  got=$(cd "$work" && CUEMU_QUIET=1 CUEMU_DEVICE=sm=$2 ./load_arch "$1" 2>&1)
  if [ "$got" = "$3" ]; then
    echo "PASS: $1 on $2: $3"
  else
    fail "$1 on sm=$2: '$got', expected '$3'"
  fi
}

if step cubins "$nvcc" -fatbin -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=sm_90 -o cubins.fatbin "$d/arch_kernels.cu"; then
  expect cubins.fatbin 80 "CUDA_SUCCESS arch 800 800"
  expect cubins.fatbin 86 "CUDA_SUCCESS arch 800 800"
  expect cubins.fatbin 90 "CUDA_SUCCESS arch 900 900"
  expect cubins.fatbin 100 CUDA_ERROR_NO_BINARY_FOR_GPU
  expect cubins.fatbin 75 CUDA_ERROR_NO_BINARY_FOR_GPU
fi
if step ptx "$nvcc" -fatbin -gencode arch=compute_80,code=compute_80 \
  -gencode arch=compute_90,code=sm_90 -o ptx.fatbin "$d/arch_kernels.cu"; then
  expect ptx.fatbin 86 "CUDA_SUCCESS arch 800 800"
  expect ptx.fatbin 90 "CUDA_SUCCESS arch 900 900"
  expect ptx.fatbin 100 "CUDA_SUCCESS arch 800 800"
fi
# One architecture stays one module, as before.
if step one "$nvcc" -fatbin -arch=sm_80 -o one.fatbin "$d/arch_kernels.cu"; then
  expect one.fatbin 86 "CUDA_SUCCESS arch 800 800"
fi

real=$(find_nvcc)
if [ -n "$real" ]; then
  (cd "$work" && nvcc_build drvapi_fat_arch.sh:nvcc-fatbin "$real" -fatbin \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
    -o real.fatbin "$d/arch_kernels.cu") >/dev/null 2>&1 ||
    fail "nvcc -fatbin refuses arch_kernels.cu"
  (cd "$work" && nvcc_build drvapi_fat_arch.sh:nvcc-loader "$real" \
    -o real_load "$d/load_arch.cu" -lcuda) >/dev/null 2>&1 ||
    fail "nvcc refuses load_arch.cu"
fi

rm -rf "$work"
exit "$failed"
