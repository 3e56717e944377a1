#!/bin/sh
# programs_trialpyext.sh: Python extensions built with cuemu-nvcc, from a
# trial of the ways Python users ship CUDA kernels (tests/programs/
# trialpyext; its Makefile builds them with nvcc or, given CUDA_HOME, with
# cuemu-toolkit). Here: two ctypes libraries (nvcc -shared -Xcompiler
# -fPIC, and nvcc -c then g++ -shared -lcudart) loaded into one
# interpreter, with kernels and __device__ variables of the same names,
# used from threads and from a forked child, unloaded and loaded again,
# and a kernel fault as a Python exception; the runtime library itself
# loaded by ctypes.CDLL("libcudart.so"), and NVRTC by
# ctypes.CDLL(".../lib64/libnvrtc.so") with its PTX launched through the
# driver library; a C extension built by
# setuptools with a custom build_ext that hands .cu files to $CUDA_HOME/
# bin/nvcc; and the folder's programs (deduced_functor_o3.cu). The pybind11
# module is tests/programs_trialpyext_pybind.sh's. Needs Python 3 with
# NumPy and setuptools. Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
python=${PYTHON:-python3}
[ -x "$builddir_abs/cuemu-nvcc" ] ||
  tool_missing programs_trialpyext.sh "cuemu-nvcc is not built"
"$python" -c 'import numpy, setuptools' 2>/dev/null ||
  tool_missing programs_trialpyext.sh "$python has no NumPy or setuptools"
toolkit=${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu-toolkit
[ -d "$toolkit" ] || tool_missing programs_trialpyext.sh "$toolkit is not built"
p=$srcdir/tests/programs/trialpyext
work=$builddir_abs/tests/tmp/programs_trialpyext.$$
mkdir -p "$work" || exit 1
failed=0

sh "$srcdir/tests/programs.sh" "$p" || failed=$((failed + 1))

# The Makefile as a user runs it, with cuemu's toolkit for CUDA_HOME (NVCC
# is set too: the test environment names the real nvcc there).
mk() {
  make -C "$p" BUILD="$work/build" CUDA_HOME="$toolkit" \
    NVCC="$toolkit/bin/nvcc" PYTHON="$python" "$@"
}
step ctypes-build mk ctypes &&
  step ctypes-run env KERN_LIBDIR="$work/build" "$python" "$p/ctypes/test_ctypes.py" &&
  echo "PASS: two ctypes libraries in one interpreter (same-named kernels and __device__ variables, threads, fork, dlclose and reload, a fault as an exception)"
# The runtime itself through ctypes: cuemu-toolkit's lib64/libcudart.so by
# its name on LD_LIBRARY_PATH, a filter library that a link editor takes
# too (emulator/export/toolkit.am), and find_library's name for it.
step ctypes-cudart env LD_LIBRARY_PATH="$toolkit/lib64" KERN_LIBDIR="$work/build" \
  "$python" "$p/ctypes/test_cudart.py" &&
  echo "PASS: ctypes.CDLL(\"libcudart.so\"): cudaMalloc, cudaMemcpy and errors from Python"
# NVRTC through ctypes: lib64/libnvrtc.so, a filter library too
# (emulator/export/libnvrtc.am), compiles a kernel whose PTX the driver's
# compat/libcuda.so.1 loads and launches, in the process's one libcuemu.
step ctypes-nvrtc "$python" "$p/ctypes/test_nvrtc.py" "$toolkit" &&
  echo "PASS: ctypes.CDLL(\".../lib64/libnvrtc.so\"): NVRTC's PTX launched through libcuda.so.1 from Python"
step setuptools-build mk setuptools &&
  step setuptools-run env PYTHONPATH="$work/build/setuptools:$p/setuptools" \
    "$python" "$p/setuptools/test_vecops.py" &&
  echo "PASS: setuptools build_ext with .cu sources compiled by \$CUDA_HOME/bin/nvcc"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-kern-a nvcc_build programs_trialpyext.sh:kern_a timeout 600 \
    "$real" -std=c++17 -arch=sm_90 -Xcompiler -fPIC -c "$p/ctypes/kern_a.cu" -o /dev/null &&
    step nvcc-kern-b nvcc_build programs_trialpyext.sh:kern_b timeout 600 \
      "$real" -std=c++17 -arch=sm_90 -Xcompiler -fPIC -c "$p/ctypes/kern_b.cu" -o /dev/null &&
    step nvcc-vecops nvcc_build programs_trialpyext.sh:vecops timeout 600 \
      "$real" -std=c++17 -arch=sm_90 -Xcompiler -fPIC -c "$p/setuptools/src/vecops.cu" -o /dev/null &&
    echo "PASS: nvcc compiles the libraries' sources"
fi

rm -rf "$work"
echo "programs_trialpyext.sh: $failed failed"
[ "$failed" -eq 0 ]
