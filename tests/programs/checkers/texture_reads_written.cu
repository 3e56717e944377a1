// texture_reads_written.cu: a correct program built with every checker,
// whose texture fetches and surface reads read only elements that were
// written, so initcheck reports none of them (tests/buggy/init_tex_*.cu
// and init_surf_read_unwritten.cu are the reads it reports): a 2D array
// filled by cudaMemcpy2DToArray and read with linear filtering (each fetch
// reads its neighbours) and with clamp and border address modes outside
// the array (border reads no memory, clamp the edge); a 3D array filled by
// cudaMemcpy3D; an array written by surf2Dwrite in an earlier kernel and
// then fetched and read back through the surface; textures over cudaMalloc
// memory set by cudaMemset and written by a kernel, one over the written
// first half of a buffer fetched past its end (a fetch out of range reads
// 0, no memory); an array of which only the top half was copied in,
// read only there; and linear filtering at the centre of the last written
// element, row, column, slice or layer's row of 1D, 2D, 3D and layered
// arrays, where the next one's 9-bit weight is 0 (also 0.001 texel past
// the centre, which the weight rounds to 0): a GPU fetches the whole
// footprint, but a texel of weight 0 adds nothing, so it is no read of
// unwritten memory (tests/buggy/init_tex_linear_next_row.cu is a fetch
// whose weight is not 0).
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int W = 8, H = 4, D = 2;

static cudaTextureObject_t array_texture(cudaArray_t a, cudaTextureAddressMode m,
                                         cudaTextureFilterMode f) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
  td.filterMode = f;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, NULL) == cudaSuccess);
  return t;
}

static cudaTextureObject_t linear_texture(void *p, size_t bytes) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = p;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = bytes;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, NULL) == cudaSuccess);
  return t;
}

/* Linear filtering at every texel's corner (four neighbours each), and
 * clamp and border fetches well outside the array. */
__global__ void filtered(cudaTextureObject_t lin, cudaTextureObject_t clamp,
                         cudaTextureObject_t border, float *out) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * W + x] = tex2D<float>(lin, (float)x, (float)y);
  if (x == 0 && y == 0) {
    out[W * H] = tex2D<float>(clamp, -5.0f, 100.0f);
    out[W * H + 1] = tex2D<float>(border, -5.0f, 100.0f);
  }
}

__global__ void volume(cudaTextureObject_t t, float *out) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  out[(z * H + y) * W + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void surface_fill(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite((float)(100 + y * W + x), s, x * (int)sizeof(float), y);
}

__global__ void surface_back(cudaTextureObject_t t, cudaSurfaceObject_t s,
                             float *out) {
  int x = threadIdx.x, y = threadIdx.y;
  float v;
  surf2Dread(&v, s, x * (int)sizeof(float), y);
  out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) + v;
}

__global__ void fill(int *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] = 7 * i;
}

__global__ void fetches(cudaTextureObject_t set, cudaTextureObject_t filled,
                        cudaTextureObject_t half, int n, int *out) {
  int i = threadIdx.x;
  /* half covers the first n elements of a buffer of 2n; i + n is past it. */
  out[i] = tex1Dfetch<int>(set, i) + tex1Dfetch<int>(filled, i) +
           tex1Dfetch<int>(half, i + n);
}

__global__ void top_rows(cudaTextureObject_t t, float *out) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

/* Linear filtering at the centre of the last written row (`rows`, `t3`'s
 * slice 0, `layers`' rows in layer 1), column (`cols`) and element (`t1`). */
__global__ void centres(cudaTextureObject_t t1, cudaTextureObject_t rows,
                        cudaTextureObject_t cols, cudaTextureObject_t t3,
                        cudaTextureObject_t layers, float *out) {
  int x = threadIdx.x;
  float c = H / 2 - 0.5f;
  out[x] = tex2D<float>(rows, x + 0.5f, c);
  out[W + x] = tex2D<float>(rows, x + 0.5f, c + 0.001f);
  out[2 * W + x] = tex3D<float>(t3, x + 0.5f, 0.5f, 0.5f);
  out[3 * W + x] = tex2DLayered<float>(layers, x + 0.5f, c, 1);
  if (x < H)
    out[4 * W + x] = tex2D<float>(cols, W / 2 - 0.5f, x + 0.5f);
  if (x == 0)
    out[5 * W] = tex1D<float>(t1, W / 2 - 0.5f);
}

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  float host[W * H * D], got[W * H * D + 2];
  for (int i = 0; i < W * H * D; ++i)
    host[i] = (float)i;
  float *out;
  CHECK(cudaMalloc(&out, sizeof got) == cudaSuccess);

  /* A 2D array, filtered and addressed outside. */
  cudaArray_t a2;
  CHECK(cudaMallocArray(&a2, &fd, W, H) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, host, W * sizeof(float),
                            W * sizeof(float), H,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  cudaTextureObject_t lin =
      array_texture(a2, cudaAddressModeClamp, cudaFilterModeLinear);
  cudaTextureObject_t clamp =
      array_texture(a2, cudaAddressModeClamp, cudaFilterModePoint);
  cudaTextureObject_t border =
      array_texture(a2, cudaAddressModeBorder, cudaFilterModePoint);
  filtered<<<1, dim3(W, H)>>>(lin, clamp, border, out);
  CHECK(cudaMemcpy(got, out, (W * H + 2) * sizeof(float),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  /* At (x, y) = (1, 1): the mean of texels 0, 1, W and W + 1. */
  CHECK(got[W + 1] == (0.0f + 1.0f + W + W + 1.0f) / 4.0f);
  CHECK(got[W * H] == (float)((H - 1) * W));
  CHECK(got[W * H + 1] == 0.0f);

  /* A 3D array filled by cudaMemcpy3D. */
  cudaArray_t a3;
  CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(W, H, D)) == cudaSuccess);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
  p.dstArray = a3;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p) == cudaSuccess);
  volume<<<1, dim3(W, H, D)>>>(
      array_texture(a3, cudaAddressModeClamp, cudaFilterModePoint), out);
  CHECK(cudaMemcpy(got, out, W * H * D * sizeof(float),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got[W * H * D - 1] == (float)(W * H * D - 1));

  /* An array written through a surface, then fetched. */
  cudaArray_t as;
  CHECK(cudaMallocArray(&as, &fd, W, H, cudaArraySurfaceLoadStore) ==
        cudaSuccess);
  cudaResourceDesc sres = {};
  sres.resType = cudaResourceTypeArray;
  sres.res.array.array = as;
  cudaSurfaceObject_t surf = 0;
  CHECK(cudaCreateSurfaceObject(&surf, &sres) == cudaSuccess);
  surface_fill<<<1, dim3(W, H)>>>(surf);
  surface_back<<<1, dim3(W, H)>>>(
      array_texture(as, cudaAddressModeClamp, cudaFilterModePoint), surf, out);
  CHECK(cudaMemcpy(got, out, W * H * sizeof(float), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(got[5] == 2.0f * 105.0f);

  /* Linear memory set by cudaMemset, written by a kernel, and the written
   * half of a buffer fetched past the texture's end. */
  const int n = 32;
  int *set, *filled, *half, *iout, igot[n];
  CHECK(cudaMalloc(&set, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&filled, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&half, 2 * n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&iout, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(set, 0, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(half, 0, n * sizeof(int)) == cudaSuccess);
  fill<<<1, n>>>(filled, n);
  fetches<<<1, n>>>(linear_texture(set, n * sizeof(int)),
                    linear_texture(filled, n * sizeof(int)),
                    linear_texture(half, n * sizeof(int)), n, iout);
  CHECK(cudaMemcpy(igot, iout, sizeof igot, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(igot[3] == 21);

  /* Half an array copied in, and read only there. */
  cudaArray_t ah;
  CHECK(cudaMallocArray(&ah, &fd, W, H) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(ah, 0, 0, host, W * sizeof(float),
                            W * sizeof(float), H / 2,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  top_rows<<<1, dim3(W, H / 2)>>>(
      array_texture(ah, cudaAddressModeClamp, cudaFilterModePoint), out);
  CHECK(cudaMemcpy(got, out, W * (H / 2) * sizeof(float),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got[W + 2] == (float)(W + 2));

  /* Linear filtering at the centres of the last written elements: a 1D
   * array and a 2D array's columns copied in up to W / 2, a 3D array's
   * first slice, a layered array's top rows in both layers; `ah` above. */
  cudaArray_t a1, ac, a3h, al;
  CHECK(cudaMallocArray(&a1, &fd, W) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, host, W * sizeof(float),
                            W / 2 * sizeof(float), 1,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMallocArray(&ac, &fd, W, H) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(ac, 0, 0, host, W * sizeof(float),
                            W / 2 * sizeof(float), H,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&a3h, &fd, make_cudaExtent(W, H, D)) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&al, &fd, make_cudaExtent(W, H, 2),
                          cudaArrayLayered) == cudaSuccess);
  cudaMemcpy3DParms ph = {};
  ph.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
  ph.dstArray = a3h;
  ph.extent = make_cudaExtent(W, H, 1);
  ph.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&ph) == cudaSuccess);
  ph.dstArray = al;
  ph.extent = make_cudaExtent(W, H / 2, 2);
  CHECK(cudaMemcpy3D(&ph) == cudaSuccess);
  centres<<<1, W>>>(
      array_texture(a1, cudaAddressModeClamp, cudaFilterModeLinear),
      array_texture(ah, cudaAddressModeClamp, cudaFilterModeLinear),
      array_texture(ac, cudaAddressModeClamp, cudaFilterModeLinear),
      array_texture(a3h, cudaAddressModeClamp, cudaFilterModeLinear),
      array_texture(al, cudaAddressModeClamp, cudaFilterModeLinear), out);
  CHECK(cudaMemcpy(got, out, (5 * W + 1) * sizeof(float),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int x = 0; x < W; ++x) {
    CHECK(got[x] == host[(H / 2 - 1) * W + x]);
    CHECK(got[W + x] == host[(H / 2 - 1) * W + x]);
    CHECK(got[2 * W + x] == host[x]);
    CHECK(got[3 * W + x] == host[W * H + (H / 2 - 1) * W + x]);
  }
  for (int y = 0; y < H; ++y)
    CHECK(got[4 * W + y] == host[y * W + W / 2 - 1]);
  CHECK(got[5 * W] == host[W / 2 - 1]);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return finish();
}
