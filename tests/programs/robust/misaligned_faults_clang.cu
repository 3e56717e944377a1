// misaligned_faults_clang.cu: misaligned_faults.cuh built with -O2 -ccbin
// clang++ (no plugin: the atomics' and the hinted loads' own tests).
// CUEMU_OPTIONS: -O2 -ccbin clang++
#include "misaligned_faults.cuh"
