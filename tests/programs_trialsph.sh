#!/bin/sh
# programs_trialsph.sh: the programs of tests/programs/trialsph, from a
# trial of physics-simulation code written the way public SPH, lattice
# Boltzmann, Jacobi and molecular-dynamics projects write it (a
# helper_math-style vector header, a key sort (the trial's thrust::sort_by_key,
# here a bitonic kernel), extern __shared__ cell ranges, SimParams in __constant__
# memory, a cooperative launch sized by the occupancy API with its
# multi-kernel fallback, mapped and pinned memory with two streams,
# atomicAdd on doubles), built with cuemu-nvcc as one combined program and
# run. stream_frames runs again under CUEMU_CHECK_SCHEDULES=1: its frames,
# copied back on one stream while the other computes, are neither reported
# nor undone by the perturbed launches. host_link/checked_copy.cu is a
# checked object linked without cuemu's link options.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
keep=$(cd "$builddir" && pwd)/tests/tmp/programs_trialsph.$$
mkdir -p "$keep" || exit 1
PROGRAMS_COMBINE=1 PROGRAMS_KEEP=$keep \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialsph" || {
  rm -rf "$keep"
  exit 1
}
status=0
out=$(cd "$keep" && CUEMU_CHECK_SCHEDULES=1 ./stream_frames 2>&1)
if printf '%s\n' "$out" | grep -qx PASS; then
  echo "PASS: stream_frames under CUEMU_CHECK_SCHEDULES=1"
else
  echo "FAIL: stream_frames under CUEMU_CHECK_SCHEDULES=1:"
  printf '%s\n' "$out"
  status=1
fi

# A checked object linked by the host C++ compiler alone, as CMake links a
# target whose linker language is C++ (a static library with .cpp files):
# the kernel's memcpy and memset still reach the checkers, so the kernel
# that reads what they wrote is clean for initcheck.
libdir=${CUEMU_LIB_DIR:-$(cd "$builddir" && pwd)/.libs}
hl=$srcdir/tests/programs/trialsph/host_link/checked_copy.cu
if "$builddir/cuemu-nvcc" --check=init -c "$hl" -o "$keep/checked_copy.o" &&
  ${CXX:-c++} "$keep/checked_copy.o" -o "$keep/checked_copy" -L"$libdir" \
    "$libdir/libcuemu_by_path.a" -lcuemu_cudart -Wl,-rpath,"$libdir" &&
  out=$("$keep/checked_copy" 2>&1) && printf '%s\n' "$out" | grep -qx PASS; then
  echo "PASS: a checked object linked by the C++ compiler"
else
  echo "FAIL: a checked object linked by the C++ compiler:"
  printf '%s\n' "${out:-}"
  status=1
fi
rm -rf "$keep"
exit $status
