// attn_softmax.cu: a program of the trial of inline PTX and low-level
// intrinsics (tests/programs_trialptx.sh): an attention-style row softmax
// with float shuffles and vector loads and stores, stmatrix, a tf32 mma,
// f16x2 and f32 reductions in global and shared memory, and special
// registers; it checks itself against a host reference.
#include <cstdio>
#include <cmath>
#include <vector>
#include "attn_ptx.cuh"

// Row softmax with online max/sum across a warp (one row per warp, 4 rows per block).
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int cols) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = blockIdx.x * 4 + warp;
  const float* xr = x + (size_t)row * cols;
  float m = -INFINITY, s = 0.f;
  for (int c = lane * 2; c < cols; c += 64) {
    float2 v = fa::ld_nc_f2(reinterpret_cast<const float2*>(xr + c));
    float nm = fmaxf(m, fmaxf(v.x, v.y));
    s = s * exp2f((m - nm) * 1.4426950f) + exp2f((v.x - nm) * 1.4426950f) + exp2f((v.y - nm) * 1.4426950f);
    m = nm;
  }
#pragma unroll
  for (int o = 16; o; o >>= 1) {
    float om = fa::shfl_xor_f(m, o), os = fa::shfl_xor_f(s, o);
    float nm = fmaxf(m, om);
    s = s * exp2f((m - nm) * 1.4426950f) + os * exp2f((om - nm) * 1.4426950f);
    m = nm;
  }
  for (int c = lane * 4; c < cols; c += 128) {
    float4 o;
    o.x = expf(xr[c] - m) / s; o.y = expf(xr[c + 1] - m) / s;
    o.z = expf(xr[c + 2] - m) / s; o.w = expf(xr[c + 3] - m) / s;
    fa::st_f4(reinterpret_cast<float4*>(y + (size_t)row * cols + c), o);
  }
}

// Each warp writes a 16x8 half tile to shared memory with stmatrix and copies it out.
__global__ void stmatrix_tile(half* out) {
  __shared__ __align__(16) half tile[16 * 8];
  int lane = threadIdx.x;
  // Fragment: lane holds (row lane/4, cols 2*(lane%4)+{0,1}) of matrices 0 and 1 (rows +8).
  uint32_t r[2];
  for (int m = 0; m < 2; ++m) {
    int row = m * 8 + lane / 4, col = 2 * (lane % 4);
    __half2 h = __floats2half2_rn((float)(row * 8 + col), (float)(row * 8 + col + 1));
    r[m] = *reinterpret_cast<uint32_t*>(&h);
  }
  unsigned short lo, hi;
  fa::unpack_h2(r[0], lo, hi);
  if (__half2float(__ushort_as_half(lo)) != (float)((lane / 4) * 8 + 2 * (lane % 4))) asm("trap;");
  // Lanes 0..15 give the row addresses: matrix lane/8, row lane%8.
  fa::stmatrix_x2(fa::smem_ptr(tile + (lane % 16) * 8), r[0], r[1]);
  __syncwarp();
  for (int i = lane; i < 128; i += 32) out[i] = tile[i];
}

// tf32 mma: 16x8 = A(16x8) * B(8x8) in fp32 with tf32 inputs.
__global__ void tf32_tile(const float* A, const float* B, float* C) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  uint32_t a[4] = {fa::to_tf32(A[g * 8 + t]), fa::to_tf32(A[(g + 8) * 8 + t]),
                   fa::to_tf32(A[g * 8 + t + 4]), fa::to_tf32(A[(g + 8) * 8 + t + 4])};
  uint32_t b[2] = {fa::to_tf32(B[g * 8 + t]), fa::to_tf32(B[g * 8 + t + 4])};  // B as N x K
  float d[4] = {0, 0, 0, 0};
  fa::mma_tf32(d, a, b);
  C[g * 8 + 2 * t] = d[0]; C[g * 8 + 2 * t + 1] = d[1];
  C[(g + 8) * 8 + 2 * t] = d[2]; C[(g + 8) * 8 + 2 * t + 1] = d[3];
}

__global__ void scatter_add(__half2* h, float* f, unsigned* info) {
  extern __shared__ float sh[];
  if (threadIdx.x == 0) sh[0] = 0.f;
  __syncthreads();
  fa::red_add_h2(h + threadIdx.x % 4, __floats2half2_rn(1.0f, 0.5f));
  fa::red_add_f32(f + threadIdx.x % 2, 0.25f);
  fa::atom_add_shared_f32(fa::smem_ptr(sh), 1.0f);
  __syncthreads();
  if (threadIdx.x == 0) {
    info[0] = (unsigned)sh[0];
    info[1] = fa::nsmid();
    info[2] = fa::dyn_smem();
    info[3] = fa::gtimer() != 0;
  }
}

int main() {
  int fails = 0;
  const int R = 8, C = 256;
  std::vector<float> hx(R * C);
  for (int i = 0; i < R * C; ++i) hx[i] = sinf(i * 0.37f) * 4.f;
  float *dx, *dy;
  cudaMalloc(&dx, R * C * 4); cudaMalloc(&dy, R * C * 4);
  cudaMemcpy(dx, hx.data(), R * C * 4, cudaMemcpyHostToDevice);
  softmax_rows<<<R / 4, 128>>>(dx, dy, C);
  std::vector<float> hy(R * C);
  cudaMemcpy(hy.data(), dy, R * C * 4, cudaMemcpyDeviceToHost);
  for (int r = 0; r < R; ++r) {
    float m = -INFINITY, s = 0;
    for (int c = 0; c < C; ++c) m = fmaxf(m, hx[r * C + c]);
    for (int c = 0; c < C; ++c) s += expf(hx[r * C + c] - m);
    for (int c = 0; c < C; ++c)
      if (fabsf(hy[r * C + c] - expf(hx[r * C + c] - m) / s) > 1e-5f) { if (fails++ < 3) printf("softmax %d %d\n", r, c); }
  }

  half* dt; cudaMalloc(&dt, 256);
  stmatrix_tile<<<1, 32>>>(dt);
  std::vector<half> ht(128);
  if (cudaMemcpy(ht.data(), dt, 256, cudaMemcpyDeviceToHost) != cudaSuccess) { printf("stmatrix launch failed\n"); fails++; }
  for (int i = 0; i < 128; ++i) if (__half2float(ht[i]) != (float)i) { if (fails++ < 3) printf("stmatrix %d: %f\n", i, __half2float(ht[i])); }

  std::vector<float> A(128), B(64);
  for (int i = 0; i < 128; ++i) A[i] = (i % 9) * 0.125f - 0.5f;
  for (int i = 0; i < 64; ++i) B[i] = (i % 5) * 0.25f - 0.5f;
  float *dA, *dB, *dC; cudaMalloc(&dA, 512); cudaMalloc(&dB, 256); cudaMalloc(&dC, 512);
  cudaMemcpy(dA, A.data(), 512, cudaMemcpyHostToDevice); cudaMemcpy(dB, B.data(), 256, cudaMemcpyHostToDevice);
  tf32_tile<<<1, 32>>>(dA, dB, dC);
  std::vector<float> hC(128);
  cudaMemcpy(hC.data(), dC, 512, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 16; ++i) for (int j = 0; j < 8; ++j) {
    float r = 0; for (int k = 0; k < 8; ++k) r += A[i * 8 + k] * B[j * 8 + k];
    if (fabsf(r - hC[i * 8 + j]) > 1e-4f) { if (fails++ < 3) printf("tf32 %d %d: %f vs %f\n", i, j, hC[i * 8 + j], r); }
  }

  __half2* dh; float* df; unsigned* di;
  cudaMalloc(&dh, 16); cudaMalloc(&df, 8); cudaMalloc(&di, 16);
  cudaMemset(dh, 0, 16); cudaMemset(df, 0, 8);
  scatter_add<<<1, 64, 64>>>(dh, df, di);
  std::vector<__half2> hh(4); float hf[2]; unsigned info[4];
  cudaMemcpy(hh.data(), dh, 16, cudaMemcpyDeviceToHost); cudaMemcpy(hf, df, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(info, di, 16, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; ++i) if (__half2float(hh[i].x) != 16.f || __half2float(hh[i].y) != 8.f) { fails++; printf("red f16x2 %d\n", i); }
  if (hf[0] != 8.f || hf[1] != 8.f) { fails++; printf("red f32\n"); }
  if (info[0] != 64 || info[1] == 0 || info[2] != 64 || info[3] != 1) { fails++; printf("info %u %u %u %u\n", info[0], info[1], info[2], info[3]); }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
