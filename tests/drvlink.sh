#!/bin/sh
# drvlink.sh: cuLink* over the files cuemu-nvcc writes (issue 16): two
# modules built with `cuemu-nvcc -rdc=true` (-cubin and -fatbin), a kernel
# of one calling a device function of the other, linked by a host .cpp
# program with cuLinkAddFile (tests/driver/drvgraph/link_files.cpp). With
# nvcc present, the same sources build with it. Run by `make check` with
# AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing drvlink.sh "$nvcc is not built"

work=$(cd "$builddir" && pwd)/tests/tmp/drvlink.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/driver/drvgraph
failed=0
fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$work/log" | head -30
  failed=1
}

cd "$work" || exit 1
if "$nvcc" -rdc=true -cubin -arch=sm_90 -o apply.cubin "$d/apply.cu" >log 2>&1 &&
  "$nvcc" -rdc=true -fatbin -o math.fatbin "$d/math.cu" >>log 2>&1 &&
  "$nvcc" -O2 -o link_files "$d/link_files.cpp" -lcuda >>log 2>&1; then
  if CUEMU_QUIET=1 ./link_files apply.cubin math.fatbin >log 2>&1 &&
    grep -qx PASS log; then
    echo "PASS: cuLinkAddFile of cuemu-nvcc -rdc=true -cubin and -fatbin"
  else
    fail "the linked modules"
  fi
else
  fail "building the modules and the host program"
fi

real_nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$real_nvcc" ]; then
  if "$real_nvcc" -rdc=true -cubin -arch=sm_90 -o nv_apply.cubin \
    "$d/apply.cu" >log 2>&1 &&
    "$real_nvcc" -std=c++17 -c -o nv_link.o "$d/link_files.cpp" >>log 2>&1; then
    echo "PASS: nvcc builds the same sources"
  else
    fail "nvcc"
  fi
fi

cd / && rm -rf "$work"
exit $failed
