// misaligned_faults_gxx_O0.cu: misaligned_faults.cuh built with g++ at -O0
// (the alignment pass runs before any optimisation; every atomic's test
// stays in place).
// CUEMU_OPTIONS: -Xcompiler -O0
#include "misaligned_faults.cuh"
