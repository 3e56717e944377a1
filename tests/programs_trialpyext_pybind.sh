#!/bin/sh
# programs_trialpyext_pybind.sh: the pybind11 module of tests/programs/
# trialpyext, a CMake project (find_package(pybind11), pybind11_add_module
# of a .cpp and a .cu, enable_language(CUDA)) configured with
# CMAKE_CUDA_COMPILER=cuemu-toolkit/bin/nvcc: py::array_t buffers, kernels
# templated on the dtype dispatched at run time, a bad launch and a kernel
# fault as Python exceptions (the interpreter goes on), the GIL released
# around cudaDeviceSynchronize. A Debug build of pyops alone, to stay in
# the time of a test (pyfused, pybind11 in a .cu file, and a Release build
# are the trial's: `make -C tests/programs/trialpyext test CUDA_HOME=...`).
# Needs Python 3 with NumPy, CMake and pybind11 (Debian's pybind11-dev).
# Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
python=${PYTHON:-python3}
self=programs_trialpyext_pybind.sh
[ -x "$builddir_abs/cuemu-nvcc" ] || tool_missing $self "cuemu-nvcc is not built"
command -v cmake >/dev/null 2>&1 ||
  tool_missing $self "cmake is not installed (scripts/setup.sh installs it)"
"$python" -c 'import numpy' 2>/dev/null || tool_missing $self "$python has no NumPy"
[ -f /usr/lib/cmake/pybind11/pybind11Config.cmake ] ||
  "$python" -c 'import pybind11' 2>/dev/null ||
  tool_missing $self "pybind11 is not installed (scripts/setup.sh installs pybind11-dev)"
toolkit=${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu-toolkit
[ -d "$toolkit" ] || tool_missing $self "$toolkit is not built"
p=$srcdir/tests/programs/trialpyext/pybind
work=$builddir_abs/tests/tmp/programs_trialpyext_pybind.$$
mkdir -p "$work" || exit 1
failed=0

step configure cmake -S "$p" -B build -DCMAKE_BUILD_TYPE=Debug -DPYOPS_FUSED=OFF \
  -DCMAKE_CUDA_COMPILER="$toolkit/bin/nvcc" \
  -DPython3_EXECUTABLE="$(command -v "$python")" &&
  step build cmake --build build &&
  step run env PYOPS_DIR="$work/build" PYOPS_FUSED=0 "$python" "$p/test_pyops.py" &&
  echo "PASS: pybind11 module of a .cpp and a .cu (dtype dispatch, exceptions, a fault, the GIL released)"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-ops nvcc_build $self:ops timeout 600 \
    "$real" -std=c++17 -arch=sm_90 -Xcompiler -fPIC -c "$p/src/ops.cu" -o /dev/null &&
    echo "PASS: nvcc compiles ops.cu"
fi

rm -rf "$work"
echo "$self: $failed failed"
[ "$failed" -eq 0 ]
