#!/bin/sh
# programs_trialrt.sh: the programs of tests/programs/trialrt, from a trial
# of hobby and course ray tracers and renderers: "ray tracing in one
# weekend" in CUDA (a vec3 class of __host__ __device__ operators, materials
# with virtual functions, the world made with new by a <<<1,1>>> kernel and
# freed by another, per-pixel curand states, an iterative and a recursive
# bounce loop under cudaLimitStackSize, a PPM image, checked against a host
# render drawing the same numbers), a smallpt-style path tracer (spheres in
# __constant__ memory, PCG and Philox samplers, a gamma lookup texture,
# the occupancy API), shading through device function pointers
# with a __constant__ camera of vec3 members, a surface and an environment
# map, a software rasterizer (64-bit atomicMin and atomicCAS on a packed
# depth and colour, shared-memory tiles, warp-aggregated counting), and
# error handling (cudaGetLastError after launches, device-heap limits,
# events, and in child processes a device-side assert and a wild write
# reported with their file and line). They are built as one program
# (PROGRAMS_COMBINE), with the BVH: Morton codes, Karras' construction with
# __clzll, an atomic refit, a host-built BVH and traversal with a stack in
# local memory, __device__ counters and a __host__ __device__ intersection.
# faults.cu includes Thrust's version header, so the combined unit is
# clang++'s (the case of its fixes: a kernel's new tested against NULL, a
# malloc whose memory does not escape). Trimmed for the build's time, about
# 7 s of CPU from an empty cache: the trial's CUB and Thrust sorts of the
# BVH and its Thrust in the path tracer are left out (a CCCL build costs
# 8 s), and its BVH files, which its CMake target compiles apart with
# CUDA_SEPARABLE_COMPILATION, are one program here.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" \
  "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialrt"
