// lib_math.cu - device-side math library, compiled separately (-rdc=true).
extern "C" __device__ float poly3(float x, const float *c) {
  return ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
}
__device__ int lib_calls;
