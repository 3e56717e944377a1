/* host_vector_types.cpp: host code that includes <cuda_runtime.h> for
 * CUDA's vector types, their make_* functions and dim3 alone, as the CPU
 * back end of a program with a CUDA back end does, compiled and linked by
 * the host compiler with the toolkit's include folder and no CUDA library:
 * it calls nothing of the runtime, so it links as with NVIDIA's headers. */
#include <cstdio>
#include <cuda_runtime.h>

static float3 add(float3 a, float3 b) {
  return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}

int main() {
  float3 v = add(make_float3(1, 2, 3), make_float3(0.5f, 0.5f, 0.5f));
  dim3 grid(4, 2);
  int2 p = make_int2(3, -1);
  int ok = v.x == 1.5f && v.y == 2.5f && v.z == 3.5f &&
           grid.x * grid.y * grid.z == 8 && p.x + p.y == 2;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
