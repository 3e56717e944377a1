#!/bin/sh
# visible_devices.sh: CUDA_VISIBLE_DEVICES over the emulated devices
# (issue 16; README's CUEMU_DEVICE section, docs/runtime.md). On three
# devices (CUEMU_DEVICE=count=3,1:sm=80,2:sm=75),
# tests/programs/visible/visible_devices.cu prints what the runtime and the
# driver API see: the visible devices renumbered from 0 in the list's
# order, each with the compute capability, PCI bus and UUID of the device
# it is (a kernel runs on each); the list ends at its first invalid entry
# (out of range, repeated, not a number, an unknown, ambiguous or MIG-
# UUID); an index is read as strtoul() reads it ("2gpu" is 2); a "GPU-"
# prefix of a UUID names that device; an empty or wholly invalid list
# leaves no device: the runtime's calls give cudaErrorNoDevice, cuInit
# CUDA_ERROR_NO_DEVICE and cuDeviceGetCount 0. CUDA_DEVICE_ORDER is
# accepted. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing visible_devices.sh "$nvcc is not built"
work=$builddir/tests/tmp/visible_devices.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0

step build "$nvcc" -arch=sm_75 \
  "$srcdir/tests/programs/visible/visible_devices.cu" -lcuda \
  -o visible_devices || exit 1

# uuid N: device N's UUID as nvidia-smi writes it ("cuemu-device-00N").
uuid() { echo "GPU-6375656d-752d-6465-7669-63652d3030$((30 + $1))"; }
sm() { case $1 in 0) echo 90 ;; 1) echo 80 ;; *) echo 75 ;; esac; }

# expect PHYSICAL...: the output when the visible devices are PHYSICAL (by
# their index among the three), in that order; none: no device.
expect() {
  if [ "$1" = none ]; then
    printf '%s\n' "runtime: count 0 (cudaErrorNoDevice)" \
      "cudaSetDevice(0): cudaErrorNoDevice" "cudaMalloc: cudaErrorNoDevice" \
      "cudaGetDeviceProperties(0): cudaErrorNoDevice" \
      "launch: cudaErrorNoDevice" "cudaDeviceSynchronize: cudaErrorNoDevice" \
      "driver: cuInit CUDA_ERROR_NO_DEVICE count 0"
    return
  fi
  echo "runtime: count $# (cudaSuccess)"
  i=0
  for p in "$@"; do
    echo "device $i: sm_$(sm "$p") pci $p $(uuid "$p") kernel ok"
    i=$((i + 1))
  done
  echo "cudaSetDevice($#): cudaErrorInvalidDevice"
  echo "driver: cuInit CUDA_SUCCESS count $#"
  i=0
  for p in "$@"; do
    echo "driver device $i: $(uuid "$p")"
    i=$((i + 1))
  done
}

# runs WHAT SETTING PHYSICAL...: the program's output under
# CUDA_VISIBLE_DEVICES=SETTING ("unset": not set) is expect's.
runs() {
  what=$1
  setting=$2
  shift 2
  if [ "$setting" = unset ]; then
    out=$(cd "$work" && env -u CUDA_VISIBLE_DEVICES \
      CUEMU_DEVICE=count=3,1:sm=80,2:sm=75 ./visible_devices 2>&1)
  else
    out=$(cd "$work" && CUDA_VISIBLE_DEVICES=$setting \
      CUEMU_DEVICE=count=3,1:sm=80,2:sm=75 ./visible_devices 2>&1)
  fi
  want=$(expect "$@")
  if [ "$out" = "$want" ]; then
    echo "PASS: $what (CUDA_VISIBLE_DEVICES=$setting)"
  else
    fail "$what (CUDA_VISIBLE_DEVICES=$setting): its output:"
    printf '%s\n' "$out" | sed 's/^/  | /'
    echo "  expected:"
    printf '%s\n' "$want" | sed 's/^/  | /'
  fi
}

runs "not set: every device" unset 0 1 2
runs "empty: no device (a test suite's skip path)" "" none
runs "one device picked" 1 1
runs "renumbered in the list's order" 2,0 2 0
runs "ended by an invalid entry (CUDA's own example)" 0,2,-1,1 0 2
runs "ended by a repeated entry" 1,1,0 1
runs "out of range: no device" 3 none
runs "not a number first: no device" x,1 none
runs "an index's leading digits (strtoul)" "2gpu, 0" 2 0
runs "a full UUID" "$(uuid 2),0" 2 0
runs "a UUID prefix" "GPU-6375656d-752d-6465-7669-63652d303031" 1
runs "an ambiguous UUID prefix: no device" GPU-6375656d none
runs "an unknown UUID ends the list" 1,GPU-deadbeef,0 1
runs "a MIG UUID names no emulated device" "MIG-$(uuid 0)" none
CUDA_DEVICE_ORDER=PCI_BUS_ID runs "CUDA_DEVICE_ORDER=PCI_BUS_ID" 1,0 1 0
CUDA_DEVICE_ORDER=FASTEST_FIRST runs "CUDA_DEVICE_ORDER=FASTEST_FIRST" 0,2 0 2

[ "$failed" -eq 0 ]
