#!/bin/sh
# device_only_kernel.sh: a kernel that only the device pass defines (a
# __global__ function within #if defined(__CUDA_ARCH__)) is refused by
# cuemu-nvcc at its line, as nvcc refuses it (its host stub names the
# kernel), and the near misses that nvcc builds build and run
# (tests/driver/devref/device_only_kernel.cu). The same for a kernel
# template that only the device pass defines and whose instance the device
# pass makes (a launch in a host function or in device code, an explicit
# instantiation or specialization; g++ and clang++), and its near misses
# (tests/driver/devref/device_only_kernel_template.cu). With nvcc present,
# it is checked to refuse the ones and build the others.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing device_only_kernel.sh "$nvcc is not built"
work=$builddir_abs/tests/tmp/device_only_kernel.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/devref/device_only_kernel.cu
line=$(grep -n '// refused$' "$src" | cut -d: -f1)

if (cd "$work" && "$nvcc" -DREFUSED -o refused "$src") >"$work/refused.log" 2>&1; then
  fail "a kernel of the device pass alone compiles"
elif grep -qF "device_only_kernel.cu:$line: error: kernel 'only_device' is defined in the device pass only" "$work/refused.log"; then
  echo "PASS: a kernel of the device pass alone is refused at its line"
else
  fail "a kernel of the device pass alone: not refused at line $line:"
  sed 's/^/  | /' "$work/refused.log" | head -10
fi
step near "$nvcc" -o near "$src" && passes near_runs ./near

# Kernel templates: REFUSED=N of the file, with its compiler and options.
tsrc=$srcdir/tests/driver/devref/device_only_kernel_template.cu
template_cases="1:g++: 2:clang++:-rdc=true 3:g++: 4:clang++:"
for case in $template_cases; do
  n=${case%%:*} rest=${case#*:}
  cc=${rest%%:*} extra=${rest#*:}
  line=$(grep -n "// refused $n\$" "$tsrc" | cut -d: -f1)
  if (cd "$work" && "$nvcc" -ccbin "$cc" $extra -DREFUSED="$n" -c -o t$n.o "$tsrc") >"$work/t$n.log" 2>&1; then
    fail "kernel template $n ($cc): compiles"
  elif grep -qF "device_only_kernel_template.cu:$line: error: kernel template '" "$work/t$n.log"; then
    echo "PASS: kernel template $n ($cc $extra) is refused at its line"
  else
    fail "kernel template $n ($cc): not refused at line $line:"
    sed 's/^/  | /' "$work/t$n.log" | head -10
  fi
done
step tnear "$nvcc" -o tnear "$tsrc" && passes tnear_runs ./tnear

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  if (cd "$work" && "$real" -arch=sm_90 -DREFUSED -o refused.nv "$src") >"$work/nv_refused.log" 2>&1; then
    fail "nvcc builds the kernel of the device pass alone"
  elif grep -q "only_device" "$work/nv_refused.log"; then
    echo "PASS: nvcc refuses it too"
  else
    fail "nvcc refuses it for another reason:"
    sed 's/^/  | /' "$work/nv_refused.log" | head -10
  fi
  step nvcc_near "$real" -arch=sm_90 -o near.nv "$src" && echo "PASS: nvcc builds the near misses"
  for case in $template_cases; do
    n=${case%%:*} rest=${case#*:}
    cc=${rest%%:*} extra=${rest#*:}
    if (cd "$work" && "$real" -ccbin "$cc" -arch=sm_90 $extra -DREFUSED="$n" -c -o t$n.nv.o "$tsrc") >"$work/nv_t$n.log" 2>&1; then
      fail "nvcc builds kernel template $n ($cc)"
    elif ! grep -q "tiled" "$work/nv_t$n.log"; then
      fail "nvcc refuses kernel template $n for another reason:"
      sed 's/^/  | /' "$work/nv_t$n.log" | head -10
    fi
  done
  step nvcc_tnear "$real" -arch=sm_90 -o tnear.nv "$tsrc" && echo "PASS: nvcc refuses the kernel templates and builds their near misses"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$([ "$failed" -eq 0 ] && echo 0 || echo 1)"
