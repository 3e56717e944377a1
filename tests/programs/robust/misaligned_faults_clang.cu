// misaligned_faults_clang.cu: misaligned_faults.cuh built with -O2 -ccbin
// clang++ (the vector accesses tested by cuemu's LLVM plugin, the atomics
// and the hinted loads by their own tests).
// CUEMU_OPTIONS: -O2 -ccbin clang++
#include "misaligned_faults.cuh"
