#!/bin/sh
# programs_trialproj.sh: programs of tests/programs/trialproj, from a trial
# of whole projects in the style of popular open-source CUDA code, each
# built unmodified by its own Makefile pointed at cuemu:
# - rt_weekend: a path tracer in the style of "Ray Tracing in One Weekend
#   in CUDA" (a scene of polymorphic objects built by device-side `new`,
#   virtual functions on the device, curand_init per pixel, recursion
#   limited by depth, cudaLimitStackSize), built by `make CUDA_PATH=` the
#   toolkit (its `NVCC ?= $(CUDA_PATH)/bin/nvcc -ccbin g++`, so the
#   environment's NVCC, which names the real one, is unset);
# - stencil3d: a 7-point stencil on cudaMalloc3D/cudaMemcpy3D memory and a
#   3D texture object, with `#if __CUDA_ARCH__ >= 800` tile sizes and
#   cuda_pipeline copies, built by `make NVCC=cuemu-nvcc` with two
#   -gencode options and -Xptxas -v;
# - graph_bfs: frontier-queue BFS with warp-aggregated atomics (cooperative
#   groups' coalesced_threads and the __activemask form) and a persistent
#   BFS with grid.sync(), -rdc=true objects, per-file rules with -MMD -MP:
#   the dependency files must lie beside the objects (build/x.cu.d, as
#   nvcc writes them), so that an edited header rebuilds its objects.
# Then namespace_launch_bounds.cu, by programs.sh: __launch_bounds__(TILE)
# of a kernel in `namespace md`, whose TILE the kernel table evaluates
# there.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialproj"
status=$?

builddir=$(cd "$builddir" && pwd)
toolkit=$builddir/.libs/cuemu-toolkit
work=$builddir/tests/tmp/programs_trialproj.$$
failed=0
command -v make >/dev/null 2>&1 || tool_missing programs_trialproj.sh "make is missing"
mkdir -p "$work" || exit 1
cp -R "$srcdir"/tests/programs/trialproj/rt_weekend \
  "$srcdir"/tests/programs/trialproj/stencil3d \
  "$srcdir"/tests/programs/trialproj/graph_bfs "$work/" || exit 1
chmod -R u+w "$work"

step rt-make env -u NVCC make -C rt_weekend "CUDA_PATH=$toolkit" &&
  passes "rt_weekend: device new of virtual objects, curand per pixel, stack limit" \
    env CUEMU_QUIET=1 ./rt_weekend/cudart

step stencil-make make -C stencil3d "NVCC=$builddir/cuemu-nvcc" &&
  passes "stencil3d: cudaMalloc3D, cudaMemcpy3D, 3D texture, __CUDA_ARCH__ >= 800 paths" \
    env CUEMU_QUIET=1 ./stencil3d/stencil

if step bfs-make make -C graph_bfs "CUDA_HOME=$toolkit"; then
  passes "graph_bfs: frontier queues, warp-aggregated atomics, grid.sync() BFS" \
    env CUEMU_QUIET=1 ./graph_bfs/build/bfs
  if [ -f "$work/graph_bfs/build/main.cu.d" ] && [ ! -f "$work/graph_bfs/main.cu.d" ] &&
    grep -q "include/cuda_utils.cuh" "$work/graph_bfs/build/main.cu.d"; then
    touch "$work/graph_bfs/include/cuda_utils.cuh"
    if (cd "$work" && make -n -C graph_bfs "CUDA_HOME=$toolkit") 2>&1 |
      grep -q "src/main.cu -o build/main.cu.o"; then
      echo "PASS: graph_bfs: -MMD writes build/main.cu.d; an edited header rebuilds its objects"
    else
      fail "graph_bfs: an edited header does not rebuild main.cu.o"
    fi
  else
    fail "graph_bfs: -MMD -c src/main.cu -o build/main.cu.o did not write build/main.cu.d: $(cd "$work/graph_bfs" && find . -name '*.d')"
  fi
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
