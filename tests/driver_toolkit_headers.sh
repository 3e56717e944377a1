#!/bin/sh
# driver_toolkit_headers.sh: the CUDA toolkit's own headers, as nvcc finds
# them (tests/driver/toolkit_headers).
# - cuemu-nvcc searches the toolkit's include folder after the user's and
#   the shims, as nvcc always searches its own: a fake toolkit named by
#   CUDA_HOME whose include folder alone has only_in_toolkit.h builds
#   only_in_toolkit.cu without -I (.cu and .cpp), and -M names the header
#   there; without CUDA_HOME it is not found, with g++'s message and its
#   closing line "compilation terminated." once, as nvcc prints them.
# - Host code (blas_main.cpp) that includes cuBLAS's, cuFFT's and
#   cuSOLVER's headers before <cuda_runtime.h> builds with kernels.cu
#   (which uses the toolkit's NVTX headers) and runs.
# - nvcc's -cubin, and -Xptxas -v's reading of a -c unit, compile with
#   nvcc's macros (arch_module.cu includes cuda_pipeline.h).
# - An object of cuemu-nvcc linked by the host compiler with NVIDIA's
#   libcudart fails, and the first undefined reference says what to do.
# Every file also builds with nvcc. Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_toolkit_headers.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_toolkit_headers.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/toolkit_headers

# A toolkit folder of NVIDIA's layout (cuemu looks for cuda_runtime_api.h
# and crt/host_config.h) with one header of its own.
fake=$work/fake-toolkit
mkdir -p "$fake/include/crt" || exit 1
: >"$fake/include/cuda_runtime_api.h"
: >"$fake/include/crt/host_config.h"
echo '#define ONLY_IN_TOOLKIT 42' >"$fake/include/only_in_toolkit.h"
if step fake-cu env CUDA_HOME="$fake" "$nvcc" -o only_cu "$d/only_in_toolkit.cu"; then
  passes "a header of CUDA_HOME's toolkit found without -I (.cu)" ./only_cu
fi
cp "$d/only_in_toolkit.cu" "$work/only_in_toolkit.cpp"
if step fake-cpp env CUDA_HOME="$fake" "$nvcc" -o only_cpp only_in_toolkit.cpp; then
  passes "a header of CUDA_HOME's toolkit found without -I (.cpp)" ./only_cpp
fi
if step fake-deps env CUDA_HOME="$fake" "$nvcc" -M "$d/only_in_toolkit.cu"; then
  if grep -q "$fake/include/only_in_toolkit.h" "$work/fake-deps.log"; then
    echo "PASS: -M names the toolkit's header"
  else
    fail "-M does not name $fake/include/only_in_toolkit.h: $(cat "$work/fake-deps.log")"
  fi
fi
# Without it, the header is nowhere: the same error nvcc gives.
if (cd "$work" && "$nvcc" -o none "$d/only_in_toolkit.cu") >"$work/none.log" 2>&1; then
  fail "only_in_toolkit.h found without the toolkit that has it"
elif grep -q "only_in_toolkit.h: No such file" "$work/none.log"; then
  echo "PASS: without that toolkit, only_in_toolkit.h is not found"
  # Both passes fail on the missing header; nvcc prints g++'s closing line
  # once, after the one message.
  if [ "$(grep -c 'No such file' "$work/none.log")" -ne 1 ] ||
    [ "$(grep -c '^compilation terminated\.$' "$work/none.log")" -gt 1 ]; then
    fail "the missing header's message or g++'s closing line printed twice: $(cat "$work/none.log")"
  else
    echo "PASS: the missing header's message and its closing line printed once"
  fi
else
  fail "unexpected error: $(cat "$work/none.log")"
fi

# Library headers before the runtime's, in a program of two files.
if step blas "$nvcc" -o blas "$d/blas_main.cpp" "$d/kernels.cu" -lcublas -lcufft -lcusolver; then
  passes "cublas_v2.h, cufft.h and cusolverDn.h before cuda_runtime.h" ./blas
fi
for h in cublas_v2.h cublas_api.h cublasXt.h cublasLt.h cufft.h cufftXt.h \
  cusolverDn.h cusolverSp.h cusolverRf.h cusolverMg.h cusolver_common.h \
  nvblas.h cudnn.h curand.h cusparse.h; do
  printf '#include <%s>\n#include <cuda_runtime.h>\nint main() { dim3 g(2); return g.x == 2 ? 0 : 1; }\n' \
    "$h" >"$work/first.cpp"
  if (cd "$work" && "$nvcc" -c first.cpp -o first.o) >"$work/first.log" 2>&1; then
    echo "PASS: <$h> before <cuda_runtime.h> in a .cpp file"
  else
    fail "<$h> before <cuda_runtime.h>: $(head -5 "$work/first.log")"
  fi
done

# nvcc's modules and ptxas's -v.
if step cubin "$nvcc" -arch=sm_80 -cubin -o arch_module.cubin "$d/arch_module.cu"; then
  echo "PASS: -cubin compiles with nvcc's macros"
fi
if step ptxas "$nvcc" -arch=sm_80 -Xptxas -v -c -o arch_module.o "$d/arch_module.cu"; then
  if grep -q "Compiling entry function 'copy_async' for 'sm_80'" "$work/ptxas.log"; then
    echo "PASS: -Xptxas -v reads the unit's kernel"
  else
    fail "-Xptxas -v printed no kernel: $(cat "$work/ptxas.log")"
  fi
fi

# The link of a Makefile that compiles with NVCC=cuemu-nvcc and links by
# the host compiler with the toolkit's own libcudart.
printf 'void scale_on_device(float *, int, float);\nint main() { scale_on_device(0, 0, 1.0f); }\n' \
  >"$work/link_main.cpp"
if step link-objects sh -c '"$1" -c "$2" -o kernels.o && ${CXX:-g++} -c link_main.cpp -o link_main.o' \
  sh "$nvcc" "$d/kernels.cu"; then
  if (cd "$work" && ${CXX:-g++} link_main.o kernels.o -o wrong -L/usr/local/cuda/lib64 -lcudart) \
    >"$work/wrong-link.log" 2>&1; then
    fail "a link without libcuemu succeeded"
  elif grep -m1 "undefined reference" "$work/wrong-link.log" |
    grep -q "cuemu_objects_need_libcuemu_link_with_cuemu_nvcc_or_the_cuemu_toolkit_lib64"; then
    echo "PASS: a link with NVIDIA's libcudart names what to do first"
  else
    fail "the first undefined reference is not the advice: $(head -4 "$work/wrong-link.log")"
  fi
  if step right-link ${CXX:-g++} link_main.o kernels.o -o right \
    -L"$builddir_abs/.libs/cuemu-toolkit/lib64" -lcudart; then
    echo "PASS: the same objects link with the cuemu toolkit's libcudart"
  fi
fi
# The same wrong link of a checked build's object (CUEMU_CC_CHECK=all in
# the Makefile's environment), which also holds the checkers' entry points:
# their code must not come before the advice.
if step link-checked sh -c 'CUEMU_CC_CHECK=all "$1" -c "$2" -o kernels_checked.o' \
  sh "$nvcc" "$d/kernels.cu"; then
  if (cd "$work" && ${CXX:-g++} link_main.o kernels_checked.o -o wrong_checked \
    -L/usr/local/cuda/lib64 -lcudart) >"$work/wrong-checked.log" 2>&1; then
    fail "a link of a checked object without libcuemu succeeded"
  elif grep -m1 "undefined reference" "$work/wrong-checked.log" |
    grep -q "cuemu_objects_need_libcuemu_link_with_cuemu_nvcc_or_the_cuemu_toolkit_lib64"; then
    echo "PASS: a checked object's link with NVIDIA's libcudart names what to do first"
  else
    fail "a checked object's first undefined reference is not the advice: $(head -4 "$work/wrong-checked.log")"
  fi
  if step right-checked ${CXX:-g++} link_main.o kernels_checked.o -o right_checked \
    -L"$builddir_abs/.libs/cuemu-toolkit/lib64" -lcudart; then
    echo "PASS: the checked object links with the cuemu toolkit's libcudart"
  fi
fi

real=$(find_nvcc)
if [ -n "$real" ]; then
  (cd "$work" && nvcc_build driver_toolkit_headers.sh:nvcc-only \
    "$real" -isystem "$fake/include" -c -o only.o "$d/only_in_toolkit.cu") \
    >/dev/null 2>&1 || fail "nvcc refuses only_in_toolkit.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_toolkit_headers.sh:nvcc-blas \
    "$real" -c "$d/blas_main.cpp" "$d/kernels.cu") >/dev/null 2>&1 ||
    fail "nvcc refuses blas_main.cpp or kernels.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_toolkit_headers.sh:nvcc-cubin \
    "$real" -arch=sm_80 -cubin -o arch_module.cubin "$d/arch_module.cu") \
    >/dev/null 2>&1 || fail "nvcc refuses arch_module.cu: the test is wrong"
fi

rm -rf "$work"
exit "$failed"
