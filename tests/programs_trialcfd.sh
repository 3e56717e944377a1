#!/bin/sh
# programs_trialcfd.sh: the programs of tests/programs/trialcfd, from a
# trial of CFD and PDE solvers: a D2Q9 lattice Boltzmann lid-driven cavity
# in float and double (a template on the real type, structure of arrays,
# lattice constants in __constant__ memory by cudaMemcpyToSymbol, one at an
# offset, bounce-back walls, a mass by double atomics, against a host run),
# 2D and 3D stencils (cudaMallocPitch and cudaMemcpy2D, cudaMalloc3D and
# cudaMemcpy3D, shared-memory tiles with halos, a 7-point Jacobi marching in
# z, red-black Gauss-Seidel), conjugate gradients with one launch per step
# (cooperative_groups' reduce) and in one persistent cooperative kernel
# (grid.sync(), the occupancy API, printf of the residual from thread 0),
# semi-Lagrangian advection through a linearly filtered texture object with
# surface output, a domain split in two halves on two streams with halo
# rows staged through pinned memory and events between the streams (run
# again with a NaN, which a device-side assert must stop), multigrid
# V-cycles captured into a CUDA graph, and a finite-volume shallow-water dam
# break (float3 in dynamic shared memory, a CFL speed by atomicMax on float
# bits into a __device__ variable). They are built as one program
# (PROGRAMS_COMBINE); the trial's static library is in the two programs that
# link it. Then the solvers whose results come from floating-point atomic
# sums run again under schedule perturbation (CUEMU_CHECK_SCHEDULES=1),
# which once reported each such sum as a race (perturb_float_sums.cu).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
keep=$(cd "$builddir" && pwd)/tests/tmp/programs_trialcfd.$$
mkdir -p "$keep" || exit 1
PROGRAMS_COMBINE=1 PROGRAMS_KEEP=$keep \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialcfd" || {
  rm -rf "$keep"
  exit 1
}
status=0
for program in lbm_cavity poisson_cg multigrid; do
  out=$(cd "$keep" && CUEMU_CHECK_SCHEDULES=1 "./$program" 2>&1)
  if printf '%s\n' "$out" | grep -qx PASS; then
    echo "PASS: $program under CUEMU_CHECK_SCHEDULES=1"
  else
    echo "FAIL: $program under CUEMU_CHECK_SCHEDULES=1:"
    printf '%s\n' "$out"
    status=1
  fi
done
# A NaN in the field: the update kernel's assert stops the run, naming the
# header's line, and the next call returns cudaErrorAssert.
out=$(cd "$keep" && ./halo_streams --nan 2>&1)
rc=$?
if [ "$rc" -ne 0 ] &&
  printf '%s\n' "$out" | grep -q "halo.cuh:[0-9]*: .*Assertion \`out == out\` failed" &&
  printf '%s\n' "$out" | grep -q "device-side assert triggered"; then
  echo "PASS: halo_streams --nan stops at the device-side assert"
else
  echo "FAIL: halo_streams --nan (exit $rc):"
  printf '%s\n' "$out"
  status=1
fi
rm -rf "$keep"
exit $status
