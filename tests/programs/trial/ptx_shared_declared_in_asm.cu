// Shared-memory bank-conflict probes written in inline PTX declare the
// shared array in the asm statement itself (`.shared.b32 smem[1024];`, or
// `.shared .align 16 .b32 buf[64];`) and address it by name, with an offset
// (`ld.shared.f32 v, [smem + 0x100];`, `ld.shared.v2.f32 {a, b}, [smem];`);
// ptxas takes the array as the function's shared memory. cuemu-nvcc
// refused the file ("inline PTX: unsupported directive .shared.b32"). The
// kernels here fill such arrays, read them back through offsets, vectors
// and the name's shared address (mov.u32 of the name, cvta.shared to a
// generic pointer), in several blocks at once; each result is checked
// against the host.
#include <cstdio>
#include "../check.cuh"

// Each thread stores its value at word tid of the block's array, then, after
// the barrier, reads word tid ^ 1 through the name and an offset: values of
// another thread, so the array must be the block's shared memory.
__global__ void exchange(const float *in, float *out) {
  const unsigned tid = threadIdx.x;
  const unsigned long long byte = 4ull * tid, other = 4ull * (tid ^ 1);
  float r;
  asm volatile(
      "{\n\t"
      ".shared.b32 smem[64];\n\t"
      ".reg.u64 a;\n\t"
      ".reg.u32 base;\n\t"
      "mov.u32 base, smem;\n\t"
      "cvt.u64.u32 a, base;\n\t"
      "add.u64 a, a, %2;\n\t"
      "st.shared.f32 [a], %1;\n\t"
      "bar.sync 0;\n\t"
      "mov.u32 base, smem;\n\t"
      "cvt.u64.u32 a, base;\n\t"
      "add.u64 a, a, %3;\n\t"
      "ld.shared.f32 %0, [a];\n\t"
      "}"
      : "=f"(r) : "f"(in[blockIdx.x * blockDim.x + tid]), "l"(byte), "l"(other) : "memory");
  out[blockIdx.x * blockDim.x + tid] = r;
}

// One thread stores four words and loads them back through fixed offsets,
// a vector and a generic pointer made by cvta.shared; the array is aligned
// as declared.
__global__ void offsets(float *out, unsigned *aligned) {
  float a, b, c, d, e;
  unsigned long long g;
  asm volatile(
      ".shared .align 16 .b32 buf[64];\n\t"
      "st.shared.f32 [buf], 1.0;\n\t"
      "st.shared.f32 [buf + 0x4], 2.0;\n\t"
      "st.shared.f32 [buf+0x80], 3.0;\n\t"
      "st.shared.f32 [buf + 0x84], 4.0;\n\t"
      "ld.shared.v2.f32 {%0, %1}, [buf + 0x80];\n\t"
      "ld.shared.f32 %2, [buf+4];\n\t"
      "cvta.shared.u64 %5, buf;\n\t"
      "ld.f32 %3, [%5];\n\t"
      "ld.shared.f32 %4, [buf + 0x84];\n\t"
      : "=f"(a), "=f"(b), "=f"(c), "=f"(d), "=f"(e), "=l"(g) :: "memory");
  out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e;
  *aligned = (unsigned)(g % 16);
}

int main() {
  const int blocks = 3, threads = 64, n = blocks * threads;
  float h_in[n], h_out[n], *d_in, *d_out;
  for (int i = 0; i < n; i++) h_in[i] = 0.5f * i - 7.0f;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  exchange<<<blocks, threads>>>(d_in, d_out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h_out[i] != h_in[(i / threads) * threads + ((i % threads) ^ 1)];
  CHECK(bad == 0);

  float h_five[5] = {0}, *d_five;
  unsigned h_aligned = 99, *d_aligned;
  cudaMalloc(&d_five, sizeof h_five);
  cudaMalloc(&d_aligned, sizeof h_aligned);
  offsets<<<1, 1>>>(d_five, d_aligned);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h_five, d_five, sizeof h_five, cudaMemcpyDeviceToHost);
  cudaMemcpy(&h_aligned, d_aligned, sizeof h_aligned, cudaMemcpyDeviceToHost);
  CHECK(h_five[0] == 3.0f && h_five[1] == 4.0f && h_five[2] == 2.0f && h_five[3] == 1.0f &&
        h_five[4] == 4.0f);
  CHECK(h_aligned == 0);
  return finish();
}
