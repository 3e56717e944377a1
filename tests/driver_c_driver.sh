#!/bin/sh
# driver_c_driver.sh: cuemu's driver API and NVRTC headers compile as C,
# as NVIDIA's do (cuda.h's C view: cuemu_driver_c_decls.h, written by
# scripts/driver_c_view.py; nvrtc.h's: cuemu_nvrtc_functions.h;
# cudaTypedefs.h's C branch). Checks:
# - the committed C view is what scripts/driver_c_view.py writes from the
#   shims and emulator/export/cuemu_libcuda_exports.h (no drift);
# - cuda.h, cudaTypedefs.h and nvrtc.h each compile alone with gcc
#   -std=c11 -pedantic -Werror (and -std=c99 without -pedantic, whose
#   anonymous unions NVIDIA's cuda.h has too), and with clang -std=c11;
# - every inline function of nvrtc.h's C++ view but nvrtcGetTypeName has
#   a C prototype and symbol;
# - tests/programs/copts2/c_driver/drv_main.c (cuInit, cuDeviceGet*,
#   cuCtxCreate, cuModuleLoadData, cuModuleGetGlobal, cuLaunchKernel with
#   kernelParams and CU_LAUNCH_PARAM_BUFFER_POINTER, cuMemcpy* and the
#   Async forms, cuGetProcAddress with a PFN type), compiled by gcc
#   against cuemu-toolkit's include folder and linked with -lcuda from its
#   lib64, runs kernels.cu made by cuemu-nvcc -fatbin and -ptx, and prints
#   PASS; so does nvrtc_main.c (NVRTC in C: options, a name expression, a
#   failing compile's log) linked with -lnvrtc -lcuda, and with -lcudart
#   -lnvrtc -lcuda (one libcuemu in the process); compiled with
#   CUDA_API_PER_THREAD_DEFAULT_STREAM, drv_main.c calls the _ptsz and
#   _ptds symbols and passes;
# - a CMake project of the two C files (CUDA::cuda_driver, CUDA::nvrtc,
#   the module by the CUDA compiler) builds and its tests pass;
# - nvcc builds both against NVIDIA's headers, where it is present.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
toolkit=$builddir/.libs/cuemu-toolkit
[ -x "$nvcc" ] || tool_missing driver_c_driver.sh "$nvcc is not built"
[ -f "$toolkit/include/cuda.h" ] ||
  tool_missing driver_c_driver.sh "$toolkit is not built"
d=$srcdir/tests/programs/copts2/c_driver
work=$builddir/tests/tmp/driver_c_driver.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
cc=${CC:-gcc}
warn="-Wall -Wextra -Werror -Wstrict-prototypes"

if python3 "$srcdir/scripts/driver_c_view.py" --check >"$work/view.log" 2>&1
then
  echo "PASS: cuemu_driver_c_decls.h is what scripts/driver_c_view.py writes"
else
  fail "$(cat "$work/view.log")"
fi

bad=
for h in cuda.h cudaTypedefs.h nvrtc.h; do
  printf '#include <%s>\nint cuemu_unit_is_not_empty;\n' "$h" >"$work/alone.c"
  for flags in "-std=c11 -pedantic" "-std=c99"; do
    # shellcheck disable=SC2086
    (cd "$work" && "$cc" $flags $warn "-I$toolkit/include" -fsyntax-only \
      alone.c) >"$work/alone.log" 2>&1 || {
      bad="$bad $h($flags)"
      sed 's/^/  | /' "$work/alone.log" | head -10
    }
  done
  if command -v clang >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    (cd "$work" && clang -std=c11 $warn "-I$toolkit/include" -fsyntax-only \
      alone.c) >"$work/alone.log" 2>&1 || {
      bad="$bad $h(clang)"
      sed 's/^/  | /' "$work/alone.log" | head -10
    }
  fi
done
if [ -z "$bad" ]; then
  echo "PASS: cuda.h, cudaTypedefs.h and nvrtc.h compile alone as C (-Werror)"
else
  fail "driver headers that do not compile alone as C:$bad"
fi

missing=
for f in $(sed -n 's/^inline [^(]*[ *]\(nvrtc[A-Za-z]*\)(.*/\1/p' \
  "$srcdir/shims/cuda_builtins/nvrtc.h"); do
  [ "$f" = nvrtcGetTypeName ] && continue
  grep -q "CUEMU_NVRTC_FUNCTION([^,]*, $f," \
    "$srcdir/shims/cuda_builtins/cuemu_nvrtc_functions.h" ||
    missing="$missing $f"
done
if [ -z "$missing" ]; then
  echo "PASS: every NVRTC function has a C prototype and symbol"
else
  fail "NVRTC functions without a C prototype:$missing"
fi

step fatbin "$nvcc" -fatbin -o kernels.fatbin "$d/kernels.cu" &&
  step ptx "$nvcc" -ptx -o kernels.ptx "$d/kernels.cu"
for std in c99 "c11 -pedantic"; do
  tag=$(echo "$std" | tr -d ' ')
  # shellcheck disable=SC2086
  step "drv-$tag" "$cc" -std=$std $warn "-I$toolkit/include" \
    -o "drv_$tag" "$d/drv_main.c" "-L$toolkit/lib64" -lcuda &&
    passes "the C driver-API program ($cc -std=$std, -fatbin module)" \
      "./drv_$tag" kernels.fatbin
done
[ -x "$work/drv_c99" ] &&
  passes "the C driver-API program with the -ptx module" ./drv_c99 kernels.ptx
step ptds "$cc" -std=c99 -DCUDA_API_PER_THREAD_DEFAULT_STREAM \
  "-I$toolkit/include" -c "$d/drv_main.c" -o drv_ptds.o &&
  if nm "$work/drv_ptds.o" | grep -q ' U cuLaunchKernel_ptsz$' &&
    nm "$work/drv_ptds.o" | grep -q ' U cuMemcpyHtoD_v2_ptds$' &&
    ! nm "$work/drv_ptds.o" | grep -q ' U cuLaunchKernel$'; then
    step link-ptds "$cc" -o drv_ptds drv_ptds.o "-L$toolkit/lib64" -lcuda &&
      passes "CUDA_API_PER_THREAD_DEFAULT_STREAM (the _ptsz and _ptds symbols)" \
        ./drv_ptds kernels.fatbin
  else
    fail "CUDA_API_PER_THREAD_DEFAULT_STREAM: drv_ptds.o's symbols:"
    nm "$work/drv_ptds.o" | grep ' U cu' | head -10 | sed 's/^/  | /'
  fi
step nvrtc "$cc" -std=c99 $warn "-I$toolkit/include" -o nvrtc_c \
  "$d/nvrtc_main.c" "-L$toolkit/lib64" -lnvrtc -lcuda &&
  passes "the C NVRTC program ($cc -std=c99, -lnvrtc -lcuda)" ./nvrtc_c
# The same with -lcudart first: lib64/libcudart.so is a filter library
# (emulator/export/toolkit.am) whose libcuemu must be the one that the
# NVRTC module asks for by name, not a second copy in the process.
step nvrtc-cudart "$cc" -std=c99 $warn "-I$toolkit/include" -o nvrtc_cudart \
  "$d/nvrtc_main.c" "-L$toolkit/lib64" -lcudart -lnvrtc -lcuda &&
  passes "the C NVRTC program linked with -lcudart -lnvrtc -lcuda" ./nvrtc_cudart

if command -v cmake >/dev/null 2>&1; then
  step cmake-configure cmake -S "$d" -B cmake_build \
    -DCMAKE_CUDA_COMPILER="$nvcc" &&
    step cmake-build cmake --build cmake_build &&
    step cmake-test ctest --test-dir cmake_build --output-on-failure &&
    echo "PASS: a CMake project of the C files (CUDA::cuda_driver, CUDA::nvrtc) builds and passes"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step real-nvcc-drv nvcc_build driver_c_driver.sh:drv "$real" -arch=sm_90 \
    -o drv_nvcc "$d/drv_main.c" -lcuda &&
    step real-nvcc-fatbin nvcc_build driver_c_driver.sh:fatbin "$real" \
      -arch=sm_90 -fatbin -o nv.fatbin "$d/kernels.cu" &&
    step real-nvcc-nvrtc nvcc_build driver_c_driver.sh:nvrtc "$real" \
      -arch=sm_90 -o nvrtc_nvcc "$d/nvrtc_main.c" -lnvrtc -lcuda &&
    echo "PASS: nvcc builds both programs and the module"
fi

exit $failed
