/*
 * warp_aggregated.cu built with clang++, the compiler cuemu-nvcc picks for
 * units that include CUB or Thrust: clang++ 14 marks every by-value
 * parameter `noundef`, so a leader's value that the other lanes pass
 * unset to a shuffle made their path undefined, and the optimiser made
 * the leader's atomicAdd unconditional (a count of 22 lanes times the
 * warp's size, and writes past the output).
 * CUEMU_OPTIONS: -ccbin clang++
 */
#include "warp_aggregated.cu"
