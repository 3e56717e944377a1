// misaligned_faults_gxx.cu: misaligned_faults.cuh built with g++ (the GCC
// plugin's alignment pass tests the vector accesses, and at -O2, cuemu's
// default, the scalar accesses that g++ knows may be misaligned: case 18).
#define MISALIGNED_KNOWN_OFFSETS 1
#include "misaligned_faults.cuh"
