#!/bin/sh
# driver_nvidia_cudart_path.sh: NVIDIA's runtime library named by its path
# on a link line (FindCUDA's CUDA_LIBRARIES is
# /usr/local/cuda/lib64/libcudart_static.a; a Makefile's
# $(CUDA_PATH)/lib64/libcudart.so) links cuemu's runtime, as -lcudart
# does, in a link by cuemu-nvcc and in one by cuemu-host-link (CMake's
# link of CUDA targets, from its response file linkLibs.rsp). Before, the
# program's host code called the library named (host_count.c's
# cudaGetDeviceCount, compiled by the C compiler against the toolkit's
# headers, answered 'no device') while its kernels ran in cuemu.
# A link that cuemu takes no part in (a CMake target of .cpp and .cu files
# that the C++ compiler links, NVIDIA's library first) still takes the
# library named: the program then warns at start that NVIDIA's runtime is
# in it beside cuemu's, naming the shared library or the program itself
# (a static library), and a program that cuemu-nvcc links does not.
# A stand-in library plays NVIDIA's (stand_in_runtime.c). nvcc builds the
# program.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_nvidia_cudart_path.sh "$nvcc is not built"
p=$srcdir/tests/driver/nvidia_cudart
work=$builddir_abs/tests/tmp/driver_nvidia_cudart_path.$$
mkdir -p "$work/nvidia/lib64" || exit 1
failed=0
cc=${CC:-gcc}

step stand-in sh -c "$cc -c -fPIC '$p/stand_in_runtime.c' -o stand_in.o &&
  ar rcs nvidia/lib64/libcudart_static.a stand_in.o &&
  $cc -shared stand_in.o -o nvidia/lib64/libcudart.so" &&
  step objects sh -c "'$nvcc' -c '$p/fill.cu' -o fill.o &&
    $cc -c -I'$builddir_abs/.libs/cuemu-toolkit/include' '$p/host_count.c' \
      -o host_count.o" && {
  for lib in libcudart_static.a libcudart.so; do
    step "nvcc-$lib" "$nvcc" host_count.o fill.o -o "by_nvcc_$lib" \
      "$work/nvidia/lib64/$lib" &&
      passes "cuemu-nvcc links cuemu's runtime for a path to $lib" \
        "./by_nvcc_$lib"
  done
  printf ' "%s" -ldl\n' "$work/nvidia/lib64/libcudart_static.a" >"$work/libs.rsp"
  step host-link "$builddir_abs/cuemu-host-link" host_count.o fill.o \
    -o by_host_link @libs.rsp &&
    passes "cuemu-host-link links cuemu's runtime for libcudart_static.a in a response file" \
      ./by_host_link
  if cat "$work"/*"links cuemu's runtime for"*.out | grep -q "NVIDIA's CUDA runtime" ||
    [ "$(cat "$work"/*"links cuemu's runtime for"*.out | grep -cx PASS)" != 3 ]; then
    fail "a program that cuemu linked warns of NVIDIA's runtime"
  else
    echo "PASS: a program that cuemu linked has no warning"
  fi
  # The C++ compiler's link of a CMake target: NVIDIA's library, then the
  # CUDA compiler's implicit libraries (cuemu-nvcc -v's).
  lib=$builddir_abs/.libs
  for kind in static:libcudart_static.a shared:libcudart.so; do
    name=${kind%%:*} file=${kind#*:}
    ( cd "$work" && ${CXX:-g++} host_count.o fill.o -o "foreign_$name" \
      "$work/nvidia/lib64/$file" -L"$lib" "$lib/libcuemu_by_path.a" \
      -lcuemu_cudart -Wl,-rpath,"$work/nvidia/lib64" &&
      ./"foreign_$name" ) >"$work/foreign_$name.log" 2>&1
    case $name in
    static) where="the program itself: a static libcudart" ;;
    *) where="$work/nvidia/lib64/libcudart.so" ;;
    esac
    if grep -qF "cuemu: warning: NVIDIA's CUDA runtime is linked into this program ($where) beside cuemu's" \
      "$work/foreign_$name.log" &&
      [ "$(grep -c "NVIDIA's CUDA runtime" "$work/foreign_$name.log")" = 1 ]; then
      echo "PASS: NVIDIA's runtime ($name) beside cuemu's is warned of once"
    else
      fail "no warning of NVIDIA's runtime ($name):"
      sed 's/^/  | /' "$work/foreign_$name.log" | head -10
    fi
  done
}

real=$(find_nvcc)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step real-nvcc nvcc_build driver_nvidia_cudart_path.sh:host_count "$real" \
    -arch=sm_90 -o host_count_nvcc "$p/host_count.c" "$p/fill.cu" &&
    echo "PASS: nvcc builds the program"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit $failed
