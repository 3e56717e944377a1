// rdc_sys_tables.cuh: a constant table in a header found through -isystem
// (as CMake passes an imported target's include folders), included by both
// units of rdc_const_globals.cu.
#pragma once

__device__ const int kSysPrimes[3] = {2, 3, 5};
