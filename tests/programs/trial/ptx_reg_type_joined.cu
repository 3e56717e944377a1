// Microbenchmarks written in inline PTX often declare their registers with
// the type joined to the directive, `.reg.f32 a, b;` and `.reg.u32 c;`
// (no space), which ptxas reads as `.reg .f32`; cuemu-nvcc refused the
// file ("inline PTX: unsupported directive .reg.f32"). The kernel times a
// few loads with %clock between registers declared that way (a 32-bit
// counter, whose difference is what such a probe records) and copies the
// loaded values out, checked against the host; a `.reg.pred` and a
// `.reg.b128` declared the same way take their own kinds.
#include <cstdio>
#include "../check.cuh"

__global__ void timed_loads(const float *in, float *out, unsigned *elapsed) {
  asm volatile(
      ".reg.f32 v1, v2;\n\t"
      ".reg.u32 c_1, c_2, e_1;\n\t"
      "mov.u32 c_1, %%clock;\n\t"
      "ld.global.f32 v1, [%0];\n\t"
      "ld.global.f32 v2, [%0 + 0x4];\n\t"
      "mov.u32 c_2, %%clock;\n\t"
      "sub.u32 e_1, c_2, c_1;\n\t"
      "st.global.u32 [%2], e_1;\n\t"
      "st.global.f32 [%1 + 0x4], v1;\n\t"
      "st.global.f32 [%1], v2;\n\t"
      :: "l"(in), "l"(out), "l"(elapsed) : "memory");
}

// A predicate and a 128-bit register declared with the joined form.
__global__ void joined_kinds(const unsigned long long *in, unsigned long long *out) {
  asm volatile(
      "{\n\t"
      ".reg.pred p;\n\t"
      ".reg.b128 q;\n\t"
      ".reg.b64 lo, hi;\n\t"
      "mov.b128 q, {%1, %2};\n\t"
      "mov.b128 {lo, hi}, q;\n\t"
      "setp.lt.u64 p, lo, hi;\n\t"
      "@p mov.b64 %0, hi;\n\t"
      "@!p mov.b64 %0, lo;\n\t"
      "}\n\t"
      : "=l"(out[threadIdx.x]) : "l"(in[2 * threadIdx.x]), "l"(in[2 * threadIdx.x + 1]));
}

int main() {
  const float h_in[2] = {1.5f, -4.25f};
  float *d_in, *d_out;
  unsigned *d_elapsed;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_in);
  cudaMalloc(&d_elapsed, sizeof(unsigned));
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  timed_loads<<<1, 1>>>(d_in, d_out, d_elapsed);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float h_out[2] = {0, 0};
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  CHECK(h_out[0] == -4.25f && h_out[1] == 1.5f);

  const unsigned long long h_pairs[4] = {3, 9, 0xffffffff00000000ull, 7};
  unsigned long long *d_pairs, *d_max, h_max[2] = {0, 0};
  cudaMalloc(&d_pairs, sizeof h_pairs);
  cudaMalloc(&d_max, sizeof h_max);
  cudaMemcpy(d_pairs, h_pairs, sizeof h_pairs, cudaMemcpyHostToDevice);
  joined_kinds<<<1, 2>>>(d_pairs, d_max);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h_max, d_max, sizeof h_max, cudaMemcpyDeviceToHost);
  CHECK(h_max[0] == 9 && h_max[1] == 0xffffffff00000000ull);
  return finish();
}
