/*
 * tma_tiles.cu: tensor copies (TMA) written as hand-written Hopper kernels
 * write them, in inline PTX: cp.async.bulk.tensor.{1..5}d from global to
 * shared memory with an mbarrier's transaction count, and back to global
 * memory with bulk groups, reading maps that cuTensorMapEncodeTiled made
 * (through cudaGetDriverEntryPointByVersion, as programs call it without linking
 * libcuda). The bytes each box leaves in shared memory are checked against
 * a host model of the copy: the swizzles (none, 32, 64 and 128 bytes: the
 * 16-byte chunk XORed with the 128-byte row), boxes partly out of bounds
 * (zeros, or NaN with the NaN request), element strides, 3d to 5d boxes,
 * and stores that leave out-of-bounds elements alone; and the bulk
 * reductions without a map (cp.reduce.async.bulk into global memory and
 * into shared memory with an mbarrier; .add.noftz of .f16 and .bf16). Prints
 * PASS when all is well.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../check.cuh"

constexpr unsigned kSmem = 16384;

__device__ inline unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ inline void wait_parity(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
}

/* One box at coordinates c (rank from the map) into shared memory, then
 * its bytes to `out`. */
__global__ void load_box(const __grid_constant__ CUtensorMap map, int rank, int4 c, int c4,
                         unsigned bytes, unsigned char *out) {
  __shared__ alignas(1024) unsigned char tile[kSmem];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned b = smem_addr(&bar), dst = smem_addr(tile);
  const unsigned long long m = reinterpret_cast<unsigned long long>(&map);
  for (unsigned i = threadIdx.x; i < kSmem; i += blockDim.x) tile[i] = 0xEE;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes)
                 : "memory");
    switch (rank) {
    case 1:
      asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2}], [%3];" ::"r"(dst), "l"(m), "r"(c.x), "r"(b) : "memory");
      break;
    case 2:
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst), "l"(m), "r"(c.x), "r"(c.y), "r"(b)
                   : "memory");
      break;
    case 3:
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst), "l"(m), "r"(c.x), "r"(c.y),
                   "r"(c.z), "r"(b) : "memory");
      break;
    case 4:
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst), "l"(m), "r"(c.x), "r"(c.y),
                   "r"(c.z), "r"(c.w), "r"(b) : "memory");
      break;
    default:
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(dst), "l"(m), "r"(c.x),
                   "r"(c.y), "r"(c.z), "r"(c.w), "r"(c4), "r"(b) : "memory");
      break;
    }
  }
  wait_parity(b, 0);
  for (unsigned i = threadIdx.x; i < kSmem; i += blockDim.x) out[i] = tile[i];
}

/* The reverse: `in` into shared memory, then a 2d box of it to global
 * memory at (c0, c1). */
__global__ void store_box(const __grid_constant__ CUtensorMap map, int c0, int c1,
                          const unsigned char *in) {
  __shared__ alignas(1024) unsigned char tile[kSmem];
  for (unsigned i = threadIdx.x; i < kSmem; i += blockDim.x) tile[i] = in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"(reinterpret_cast<unsigned long long>(&map)), "r"(c0), "r"(c1),
                 "r"(smem_addr(tile)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

/* Bulk reductions (no tensor map): 64 words of shared memory added into
 * global memory, maxed into global memory, and added into another shared
 * array with an mbarrier's transaction count, which `out` then receives. */
__global__ void bulk_reduce(unsigned *sum, int *big, unsigned *out) {
  __shared__ alignas(128) unsigned words[64];
  __shared__ alignas(128) unsigned acc[64];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned b = smem_addr(&bar);
  words[threadIdx.x] = threadIdx.x * 3 + 1;
  acc[threadIdx.x] = 1000;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 256;"
                 ::"l"(sum), "r"(smem_addr(words)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%0], [%1], 256;"
                 ::"l"(big), "r"(smem_addr(words)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(b) : "memory");
    asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
                 ".add.u32 [%0], [%1], 256, [%2];"
                 ::"r"(smem_addr(acc)), "r"(smem_addr(words)), "r"(b) : "memory");
  }
  wait_parity(b, 0);
  out[threadIdx.x] = acc[threadIdx.x];
}

/* The 16-bit floating-point bulk reductions: 64 halves of 1.0 added into
 * `h` (.f16) and 64 bfloat16 values of 2.0 into `b` (.bf16). */
__global__ void bulk_reduce_half(unsigned short *h, unsigned short *b) {
  __shared__ alignas(128) unsigned short halves[64];
  __shared__ alignas(128) unsigned short bfloats[64];
  halves[threadIdx.x] = 0x3C00;  // 1.0
  bfloats[threadIdx.x] = 0x4000; // 2.0
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], 128;"
                 ::"l"(h), "r"(smem_addr(halves)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%0], [%1], 128;"
                 ::"l"(b), "r"(smem_addr(bfloats)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

/* ---- The host's model ------------------------------------------------------ */

struct Tensor {
  int rank;
  unsigned esize;
  uint64_t dim[5], stride[5]; /* stride[0] = esize */
  uint32_t box[5], step[5];
};

/* The byte offset in shared memory where the hardware puts box element
 * (j0..j4): rows of the traversed inner elements rounded up to 16 bytes,
 * then the swizzle of the 16-byte chunk by the 128-byte row. */
static unsigned swizzled(unsigned offset, int swizzle) {
  const unsigned chunk = (offset >> 4) & 7, row = (offset >> 7) & 7;
  const unsigned keep = swizzle == 1 ? 1 : swizzle == 2 ? 3 : swizzle == 3 ? 7 : 0;
  return (offset & ~(7u << 4)) | (((chunk ^ (row & keep)) & 7) << 4);
}

/* Expected shared bytes and transaction count of a box at c. */
static unsigned model(const Tensor &t, const std::vector<unsigned char> &g, const int *c,
                      int swizzle, bool nan_fill, std::vector<unsigned char> &s) {
  unsigned n[5];
  for (int i = 0; i < 5; ++i)
    n[i] = i < t.rank ? (t.box[i] + t.step[i] - 1) / t.step[i] : 1;
  const unsigned row = (n[0] * t.esize + 15) / 16 * 16;
  s.assign(kSmem, 0xEE);
  unsigned r = 0;
  for (unsigned j4 = 0; j4 < n[4]; ++j4)
    for (unsigned j3 = 0; j3 < n[3]; ++j3)
      for (unsigned j2 = 0; j2 < n[2]; ++j2)
        for (unsigned j1 = 0; j1 < n[1]; ++j1, ++r)
          for (unsigned j0 = 0; j0 < n[0]; ++j0) {
            const unsigned j[5] = {j0, j1, j2, j3, j4};
            bool in = true;
            uint64_t at = 0;
            for (int i = 0; i < t.rank; ++i) {
              const long long x = c[i] + static_cast<long long>(j[i]) * t.step[i];
              in = in && x >= 0 && x < static_cast<long long>(t.dim[i]);
              at += static_cast<uint64_t>(x) * t.stride[i];
            }
            unsigned char *to = &s[swizzled(r * row + j0 * t.esize, swizzle)];
            if (in) {
              std::memcpy(to, &g[at], t.esize);
            } else {
              std::memset(to, nan_fill ? 0xff : 0, t.esize);
              if (nan_fill) to[t.esize - 1] = 0x7f;
            }
          }
  return r * row;
}

static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;

static bool make_map(CUtensorMap *map, const Tensor &t, CUtensorMapDataType type, void *base,
                     int swizzle, bool nan_fill) {
  return encode(map, type, t.rank, base, t.dim, t.stride + 1, t.box, t.step,
                CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(swizzle),
                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                nan_fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                         : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* Loads the box at c through the device and compares with the model. */
static void check_box(const Tensor &t, CUtensorMapDataType type, const std::vector<unsigned char> &g,
                      unsigned char *dg, const int *c, int swizzle, bool nan_fill,
                      unsigned char *dout, const char *what) {
  CUtensorMap map;
  CHECK(make_map(&map, t, type, dg, swizzle, nan_fill));
  std::vector<unsigned char> want, got(kSmem);
  const unsigned bytes = model(t, g, c, swizzle, nan_fill, want);
  load_box<<<1, 128>>>(map, t.rank, make_int4(c[0], c[1], c[2], c[3]), c[4], bytes, dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(got.data(), dout, kSmem, cudaMemcpyDeviceToHost) == cudaSuccess);
  if (got != want) {
    unsigned i = 0;
    while (got[i] == want[i]) ++i;
    std::fprintf(stderr, "%s: byte %u is %u, want %u\n", what, i, got[i], want[i]);
    CHECK(got == want);
  }
}

int main() {
  cudaDriverEntryPointQueryResult found;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                         reinterpret_cast<void **>(&encode), 12000,
                                         cudaEnableDefault, &found) == cudaSuccess);
  CHECK(found == cudaDriverEntryPointSuccess && encode);
  if (!encode) return finish();

  /* A 2d float matrix of 80 x 100 with rows padded to 512 bytes. */
  const uint64_t rows = 100, cols = 80, pitch = 512;
  std::vector<unsigned char> g(rows * pitch);
  for (size_t i = 0; i < g.size(); ++i) g[i] = static_cast<unsigned char>(i * 7 + i / 251);
  unsigned char *dg, *dout;
  CHECK(cudaMalloc(&dg, g.size()) == cudaSuccess);
  CHECK(cudaMalloc(&dout, kSmem) == cudaSuccess);
  CHECK(cudaMemcpy(dg, g.data(), g.size(), cudaMemcpyHostToDevice) == cudaSuccess);

  /* Each swizzle with its widest inner box (8, 16, 32 floats), 16 rows; an
   * inner box narrower than the span; boxes partly out of bounds. */
  const int spans[] = {32, 8, 16, 32};
  for (int sw = 0; sw <= 3; ++sw) {
    Tensor t = {2, 4, {cols, rows}, {4, pitch}, {static_cast<uint32_t>(spans[sw]), 16}, {1, 1}};
    const int inside[5] = {8, 20, 0, 0, 0}, corner[5] = {cols - 5, -6, 0, 0, 0};
    check_box(t, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g, dg, inside, sw, false, dout, "inside");
    check_box(t, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g, dg, corner, sw, false, dout, "corner");
    check_box(t, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g, dg, corner, sw, true, dout, "corner NaN");
    t.box[0] = 4;
    check_box(t, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g, dg, inside, sw, false, dout, "narrow");
  }
  /* Half-precision elements, element strides (every second column, every
   * third row), and the whole box outside. */
  {
    Tensor t = {2, 2, {2 * cols, rows}, {2, pitch}, {64, 24}, {2, 3}};
    const int c[5] = {-16, 90, 0, 0, 0}, away[5] = {1000, 1000, 0, 0, 0};
    check_box(t, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, g, dg, c, 3, false, dout, "f16 strided");
    check_box(t, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, g, dg, away, 0, true, dout, "outside");
  }
  /* 1d, and 3d to 5d views of the same bytes. */
  {
    Tensor t1 = {1, 1, {50000}, {1}, {256}, {1}};
    const int c1[5] = {49900, 0, 0, 0, 0};
    check_box(t1, CU_TENSOR_MAP_DATA_TYPE_UINT8, g, dg, c1, 0, false, dout, "1d");
    Tensor t3 = {3, 4, {16, 8, 50}, {4, 64, 1024}, {16, 4, 6}, {1, 1, 2}};
    const int c3[5] = {0, 6, 45, 0, 0};
    check_box(t3, CU_TENSOR_MAP_DATA_TYPE_INT32, g, dg, c3, 2, false, dout, "3d");
    Tensor t4 = {4, 8, {8, 4, 10, 12}, {8, 64, 256, 2560}, {8, 4, 3, 5}, {1, 1, 1, 1}};
    const int c4[5] = {0, -1, 8, 10, 0};
    check_box(t4, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, g, dg, c4, 3, true, dout, "4d");
    Tensor t5 = {5, 2, {16, 4, 4, 6, 10}, {2, 32, 128, 512, 3072}, {16, 2, 3, 2, 4},
                 {1, 1, 1, 1, 2}};
    const int c5[5] = {0, 3, 2, 5, 7};
    check_box(t5, CU_TENSOR_MAP_DATA_TYPE_UINT16, g, dg, c5, 1, false, dout, "5d");
  }
  /* Stores: a swizzled shared box back to global memory at a corner, where
   * only the elements in bounds are written. */
  {
    Tensor t = {2, 4, {cols, rows}, {4, pitch}, {32, 16}, {1, 1}};
    CUtensorMap map;
    CHECK(make_map(&map, t, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dg, 3, false));
    std::vector<unsigned char> in(kSmem), want = g, got(g.size());
    for (unsigned i = 0; i < kSmem; ++i) in[i] = static_cast<unsigned char>(255 - i % 253);
    unsigned char *din;
    CHECK(cudaMalloc(&din, kSmem) == cudaSuccess);
    CHECK(cudaMemcpy(din, in.data(), kSmem, cudaMemcpyHostToDevice) == cudaSuccess);
    const int c0 = cols - 20, c1 = rows - 10;
    store_box<<<1, 64>>>(map, c0, c1, din);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int j1 = 0; j1 < 16; ++j1)
      for (int j0 = 0; j0 < 32; ++j0)
        if (c0 + j0 < static_cast<int>(cols) && c1 + j1 < static_cast<int>(rows))
          std::memcpy(&want[(c1 + j1) * pitch + (c0 + j0) * 4],
                      &in[swizzled(j1 * 128 + j0 * 4, 3)], 4);
    CHECK(cudaMemcpy(got.data(), dg, g.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(got == want);
    cudaFree(din);
  }
  /* The bulk reductions. */
  {
    unsigned *sum, *out;
    int *big;
    std::vector<unsigned> hs(64, 5), ho(64);
    std::vector<int> hb(64);
    for (int i = 0; i < 64; ++i) hb[i] = i % 2 ? 1000 : -7;
    CHECK(cudaMalloc(&sum, 256) == cudaSuccess);
    CHECK(cudaMalloc(&big, 256) == cudaSuccess);
    CHECK(cudaMalloc(&out, 256) == cudaSuccess);
    CHECK(cudaMemcpy(sum, hs.data(), 256, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(big, hb.data(), 256, cudaMemcpyHostToDevice) == cudaSuccess);
    bulk_reduce<<<1, 64>>>(sum, big, out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(hs.data(), sum, 256, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(cudaMemcpy(hb.data(), big, 256, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(cudaMemcpy(ho.data(), out, 256, cudaMemcpyDeviceToHost) == cudaSuccess);
    bool ok = true;
    for (int i = 0; i < 64; ++i) {
      const int w = i * 3 + 1;
      ok = ok && hs[i] == static_cast<unsigned>(5 + w) && ho[i] == static_cast<unsigned>(1000 + w) &&
           hb[i] == (i % 2 ? (w > 1000 ? w : 1000) : w);
    }
    CHECK(ok);
    cudaFree(sum);
    cudaFree(big);
    cudaFree(out);
  }
  /* .f16 and .bf16: 2.0 + 1.0 and 1.0 + 2.0 are 3.0 in each. */
  {
    unsigned short *halves;
    std::vector<unsigned short> hh(128);
    for (int i = 0; i < 64; ++i) {
      hh[i] = 0x4000;      // f16 2.0
      hh[64 + i] = 0x3F80; // bf16 1.0
    }
    CHECK(cudaMalloc(&halves, 256) == cudaSuccess);
    CHECK(cudaMemcpy(halves, hh.data(), 256, cudaMemcpyHostToDevice) == cudaSuccess);
    bulk_reduce_half<<<1, 64>>>(halves, halves + 64);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(hh.data(), halves, 256, cudaMemcpyDeviceToHost) == cudaSuccess);
    bool ok = true;
    for (int i = 0; i < 64; ++i)
      ok = ok && hh[i] == 0x4200 && hh[64 + i] == 0x4040; // 3.0, 3.0
    CHECK(ok);
    cudaFree(halves);
  }
  cudaFree(dg);
  cudaFree(dout);
  return finish();
}
