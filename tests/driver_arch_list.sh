#!/bin/sh
# driver_arch_list.sh: __CUDA_ARCH_LIST__ (issue 13), which nvcc 13 defines
# in both passes of a .cu file and for .cpp and .c files: the virtual
# architectures compiled for, in increasing order, with commas. A program
# built with two -gencode options (tests/driver/cc13c/arch_list.cu) sees
# 800,900 in host code and in a kernel, whose __CUDA_ARCH__ is 900; the
# device pass (-E) and a .cpp file see nvcc's values for -arch=sm_80, two
# -gencode in either order, -arch=compute_80 -code=sm_86, the last of two
# -arch (with nvcc's warning), -arch=all and all-major; -arch=native and no
# -arch give the emulated device's 900 (nvcc: the GPU's, 750 without one).
# -code without -arch, or with a real -arch, is nvcc's error. With nvcc
# present, its -E gives the same lists.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/cc13c
work=$(mktemp -d)
failed=0
real=$(find_nvcc)

# Both passes of a program.
if step arch-list "$cuemu" -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=sm_90 -o arch_list "$d/arch_list.cu"; then
  out=$("$work/arch_list" 2>&1)
  if [ "$out" = "host 800,900 device 800,900 arch 900" ]; then
    echo "PASS: two -gencode: 800,900 in both passes, __CUDA_ARCH__ 900"
  else
    fail "two -gencode: '$out'"
  fi
fi

# list COMPILER OPTIONS...: the device pass's list and __CUDA_ARCH__ (-E of
# a .cu file), then a .cpp file's list.
printf 'XLIST __CUDA_ARCH_LIST__\n#ifdef __CUDA_ARCH__\nXDEV __CUDA_ARCH__\n#endif\n' \
  >"$work/macros.cu"
printf 'XLIST __CUDA_ARCH_LIST__\n' >"$work/macros.cpp"
list() {
  compiler=$1
  shift
  (cd "$work" && "$compiler" "$@" -E macros.cu 2>&1 && "$compiler" "$@" -E \
    macros.cpp 2>&1) | sed -n 's/^XLIST /list /p; s/^XDEV /arch /p; s/.*\(warning\|fatal\) *: /\1: /p' |
    tr '\n' ' '
}
check() {
  expected=$1
  shift
  got=$(list "$cuemu" "$@")
  if [ "$got" != "$expected" ]; then
    fail "$*: '$got', expected '$expected'"
    return
  fi
  echo "PASS: ${*:-no -arch}: $expected"
  if [ -n "$real" ] && [ "$2" != native ] && [ $# -gt 0 ]; then
    # nvcc's -E shows its first device pass (750 of -arch=all-major):
    # the lists are compared, in an nvcc_build (tests/test_tools.sh) that
    # runs unless tests/nvcc_builds.txt records this verdict (the script,
    # its files' text and the list expected are in its words).
    ours=$(echo "$got" | sed 's/arch [0-9]* //')
    (cd "$work" && nvcc_build "driver_arch_list.sh:E$(echo "$*" | tr ' ' _)" \
      sh -c "$nvcc_lists" sh "$ours" "$real" "$@") >"$work/nvcc-E.log" 2>&1 ||
      fail "$*: nvcc gives another list than cuemu's '$ours': $(cat "$work/nvcc-E.log")"
  fi
}
# nvcc_lists OURS NVCC OPTIONS...: succeeds when nvcc's lists (as list()
# makes them, without __CUDA_ARCH__) are OURS.
nvcc_lists='ours=$1
shift
printf "XLIST __CUDA_ARCH_LIST__\n#ifdef __CUDA_ARCH__\nXDEV __CUDA_ARCH__\n#endif\n" >macros.cu
printf "XLIST __CUDA_ARCH_LIST__\n" >macros.cpp
theirs=$( ("$@" -E macros.cu 2>&1 && "$@" -E macros.cpp 2>&1) |
  sed -n "s/^XLIST /list /p; s/^XDEV /arch /p; s/.*\(warning\|fatal\) *: /\1: /p" |
  tr "\n" " " | sed "s/arch [0-9]* //")
[ "$theirs" = "$ours" ] || { echo "nvcc gives $theirs"; exit 1; }'

check "list 900 arch 900 list 900 "
check "list 900 arch 900 list 900 " -arch native
check "list 800 arch 800 list 800 " -arch=sm_80
check "list 800,900 arch 900 list 800,900 " \
  -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80
check "list 800 arch 800 list 800 " -arch=compute_80 -code=sm_86
check "warning: incompatible redefinition for option 'gpu-architecture', the last value of this option was used list 800 arch 800 warning: incompatible redefinition for option 'gpu-architecture', the last value of this option was used list 800 " \
  -arch=sm_90 -arch=sm_80
check "list 750,800,900,1000,1100,1200 arch 900 list 750,800,900,1000,1100,1200 " \
  -arch=all-major
got=$(list "$cuemu" -arch=all)
case $got in
"list 750,800,860,870,880,890,900,1000,1030,1100,1200,1210 arch 900 "*)
  echo "PASS: -arch=all: every architecture, __CUDA_ARCH__ 900" ;;
*) fail "-arch=all: '$got'" ;;
esac
check "fatal: -arch option not specified " -code=sm_86
check "fatal: Value of -arch option ('sm_86') must be a virtual code architecture " \
  -arch=sm_86 -code=sm_86

# Architecture-specific and family-specific targets (sm_90a, sm_100f): the
# device pass's macros, as nvcc 13's --dryrun shows them (sm_90a:
# __CUDA_ARCH_SPECIFIC__, __CUDA_ARCH_FAMILY_SPECIFIC__ and
# __CUDA_ARCH_FEAT_SM90_ALL; sm_100f: __CUDA_ARCH_FAMILY_SPECIFIC__ only;
# none in host code), and the launch on the emulated sm_90: code for sm_90a
# runs, code for an sm_100 target only is cudaErrorNoKernelImageForDevice,
# as on an sm_90 GPU, and runs on an emulated sm_100.
# nvcc's own macros for each target, from its --dryrun (the device pass's
# commands), where nvcc is present; its -E shows __CUDA_ARCH__ alone.
if [ -n "$real" ]; then
  for target in "-arch=sm_90a" "-arch=sm_100f" \
    "-gencode arch=compute_90a,code=sm_90a"; do
    case $target in
    *100f) want="-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000 " ;;
    *) want="-D__CUDA_ARCH_FAMILY_SPECIFIC__=900 -D__CUDA_ARCH_FEAT_SM90_ALL -D__CUDA_ARCH_SPECIFIC__=900 " ;;
    esac
    # An nvcc_build, as the lists above.
    # shellcheck disable=SC2086
    (cd "$work" && nvcc_build "driver_arch_list.sh:dryrun$(echo "$target" | tr ' ' _)" \
      sh -c 'want=$1
shift
theirs=$("$@" --dryrun 2>&1 | grep -o -- "-D__CUDA_ARCH_[A-Z_]*SPECIFIC__=[0-9]*\|-D__CUDA_ARCH_FEAT_SM[0-9]*_ALL" | sort -u | tr "\n" " ")
[ "$theirs" = "$want" ] || { echo "$theirs"; exit 1; }' sh "$want" "$real" $target -c -o none.o \
      "$srcdir/tests/driver/cc13d/arch_specific.cu") >"$work/nvcc-dryrun.log" 2>&1 ||
      fail "$target: nvcc --dryrun gives '$(cat "$work/nvcc-dryrun.log")'"
  done
fi
s=$srcdir/tests/driver/cc13d/arch_specific.cu
run_target() {
  name=$1
  device=$2
  shift 2
  step "$name" "$cuemu" "$@" -o "$name" "$s" &&
    (cd "$work" && CUEMU_DEVICE=$device "./$name")
}
expect_run() {
  want=$1
  shift
  got=$(run_target "$@" 2>&1)
  if [ "$got" = "$want" ]; then
    echo "PASS: $1 (CUEMU_DEVICE=$2): $want"
  else
    fail "$*: '$got', expected '$want'"
  fi
}
expect_run "cudaSuccess arch 900 specific 900 family 900 feat 1 host 0" \
  run-90a sm=90 -arch=sm_90a
expect_run "cudaSuccess arch 900 specific 900 family 900 feat 1 host 0" \
  run-gencode-90a sm=90 -gencode arch=compute_90a,code=sm_90a
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-100a sm=90 -arch=sm_100a
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-100f sm=90 -arch=sm_100f
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-100 sm=90 -arch=sm_100
# -arch=sm_90a also embeds compute_90's PTX (nvcc 13 --dryrun: a cicc pass
# of compute_90 besides compute_90a's; ptx sm=90, elf sm=90a, ptx sm=90a),
# which a 10.0 device's driver compiles: that pass's code runs, without the
# 90a macros, as with -gencode for sm_90a plus compute_90's PTX. sm_90a's
# cubin and compute_90a's PTX run on 9.0 only (arch-specific: exact match).
expect_run "cudaSuccess arch 900 specific 0 family 0 feat 0 host 0" \
  run-90a-on-100 sm=100 -arch=sm_90a
expect_run "cudaSuccess arch 900 specific 0 family 0 feat 0 host 0" \
  run-90a-90ptx-on-100 sm=100 -gencode arch=compute_90a,code=sm_90a \
  -gencode arch=compute_90,code=compute_90
expect_run "cudaSuccess arch 900 specific 900 family 900 feat 1 host 0" \
  run-90a-90ptx-on-90 sm=90 -gencode arch=compute_90a,code=sm_90a \
  -gencode arch=compute_90,code=compute_90
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-gencode-90a-on-100 sm=100 -gencode arch=compute_90a,code=sm_90a
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-gencode-90a-ptx-on-100 sm=100 \
  "-gencode=arch=compute_90a,code=[sm_90a,compute_90a]"
expect_run "cudaSuccess arch 1000 specific 0 family 1000 feat 0 host 0" \
  run-100f-on-103 sm=103 -arch=sm_100f
# Cubins run on their own major version only (sm_80's on 8.x, not 9.0);
# PTX (compute_80) is compiled by the driver for any newer device.
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-80-100 sm=90 -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_100,code=sm_100
# One device pass per virtual architecture: the image that the driver
# picks runs its own pass's code (compute_80's PTX on 9.0, sm_80 on 8.6).
expect_run "cudaSuccess arch 800 specific 0 family 0 feat 0 host 0" \
  run-80ptx-100 sm=90 -gencode arch=compute_80,code=compute_80 \
  -gencode arch=compute_100,code=sm_100
expect_run "cudaSuccess arch 800 specific 0 family 0 feat 0 host 0" \
  run-80-90-on-86 sm=86 -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=sm_90
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-80-90-on-100 sm=100 -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=sm_90
expect_run "cudaSuccess arch 860 specific 0 family 0 feat 0 host 0" \
  run-code-86-on-90 sm=90 -arch=compute_86 -code=sm_86,compute_86
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-code-86-sass-on-90 sm=90 -arch=compute_86 -code=sm_86
expect_run "cudaErrorNoKernelImageForDevice arch 0 specific 0 family 0 feat 0 host 0" \
  run-90a-100a-on-103 sm=103 -gencode arch=compute_90a,code=sm_90a \
  -gencode arch=compute_100a,code=sm_100a
# The report names the kernel, the device and the build's images.
got=$(cd "$work" && ARCH_SPECIFIC_MESSAGE=1 CUEMU_DEVICE=sm=100 ./run-80-90-on-100 2>&1 >/dev/null)
case $got in
*"kernel probe_target"*"compute capability 10.0"*"sm_80,sm_90 "*)
  echo "PASS: the report: $got" ;;
*) fail "the report of run-80-90-on-100: '$got'" ;;
esac
# -arch=all: a cubin of every architecture (sm_86 among them) and the PTX of
# the highest; cuemu compiles one device pass for it, the emulated device's.
expect_run "cudaSuccess arch 900 specific 0 family 0 feat 0 host 0" \
  run-all-on-86 sm=86 -arch=all

rm -rf "$work"
exit $failed
