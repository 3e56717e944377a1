/*
 * pipeline_primitives.cu built with clang++, the compiler cuemu-nvcc picks for units that
 * include CUB or Thrust: the toolkit's pipeline helpers pass a __restrict pointer to an "l"
 * operand of their inline PTX.
 * CUEMU_OPTIONS: -ccbin clang++
 */
#include "pipeline_primitives.cu"
