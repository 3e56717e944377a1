#!/bin/sh
# ccbin_c_driver.sh: -ccbin gcc and -ccbin clang name C drivers, with which
# nvcc compiles (`gcc -x c++`) but links with their C++ counterparts, g++
# and clang++ (in the same folder when the option gives one: -ccbin
# /usr/bin/gcc links with /usr/bin/g++), so that a program whose host code
# needs the C++ library links; the README line of a public project
# (`nvcc -ccbin clang -Xcompiler -fopenmp ...`, trial pub28) did not link
# with cuemu-nvcc. tests/driver/ccbin_c_driver/ccbin_c_driver.cu (std::string,
# std::vector, std::cout, an exception) is built in one step and compiled
# then linked in two, with each -ccbin, and run. With nvcc present, it is
# checked to build with -ccbin gcc. About 10 s of CPU.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing ccbin_c_driver.sh "$nvcc is not built"
command -v gcc >/dev/null 2>&1 || tool_missing ccbin_c_driver.sh "gcc is not installed"
work=$builddir_abs/tests/tmp/ccbin_c_driver.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
src=$srcdir/tests/driver/ccbin_c_driver/ccbin_c_driver.cu

# Each -ccbin: gcc by name and by path, clang by name where it is installed;
# a label names each in the test's output and files.
cases="gcc:gcc gcc-path:$(command -v gcc)"
command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1 &&
  cases="$cases clang:clang"
for case in $cases; do
  label=${case%%:*}
  cc=${case#*:}
  step "$label-one" "$nvcc" -ccbin "$cc" -o "$label-one" "$src" &&
    passes "$label-one (-ccbin $label, built in one step, runs)" "./$label-one"
  step "$label-compile" "$nvcc" -ccbin "$cc" -c -o "$label-two.o" "$src" &&
    step "$label-link" "$nvcc" -ccbin "$cc" -o "$label-two" "$label-two.o" &&
    passes "$label-two (-ccbin $label, compiled then linked, runs)" "./$label-two"
done

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc-build nvcc_build ccbin_c_driver.sh:gcc "$real" -ccbin gcc \
    -arch=sm_90 -o prog.nv "$src" &&
    echo "PASS: nvcc -ccbin gcc builds it"
fi
exit $failed
