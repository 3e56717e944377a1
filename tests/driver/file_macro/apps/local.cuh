// local.cuh: a header beside main.cu, included with quotes.
#pragma once
__host__ __device__ inline const char *local_file() { return __FILE__; }
