// misaligned_faults_gxx.cu: misaligned_faults.cuh built with g++ (the GCC
// plugin's alignment pass tests the vector accesses).
#include "misaligned_faults.cuh"
