// bench_texture.cu: the CPU cost of a texture fetch in a kernel against a
// plain global load in the same kernel shape: tex1Dfetch<float> on linear
// memory, tex2D<float> with point filtering and with linear filtering (both
// on a 2D array, unnormalized coordinates, clamp), and a float load from
// global memory. Each thread reads `taps` neighbours (a 2D stencil, as CUDA
// by Example's heat transfer does through textures) and writes their sum.
// Rounds of the four kernels alternate in one process; each is timed by the
// process's CPU time and the minimum of each taken. Prints
//   texture_global_ns: N...     (per plain load)
//   texture_fetch1d_ns: N...    (per tex1Dfetch)
//   texture_2d_point_ns: N...   (per tex2D, point filtering)
//   texture_2d_linear_ns: N...  (per tex2D, linear filtering)
//   texture_ratio: R1 R2 R3     (each fetch over the plain load, minima)
// and checks the fetches' sums against the loads' (point: equal; linear:
// the host's bilinear sum within 8, the 9-bit weights' error).
// Usage: bench_texture [ROUNDS]
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static const int side = 256, threads = 256, taps = 8;

static double cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

// The neighbours a thread reads: a 3x3 stencil without its centre.
__host__ __device__ inline int tap_dx(int k) { return k < 3 ? k - 1 : k < 5 ? (k == 3 ? -1 : 1) : k - 6; }
__host__ __device__ inline int tap_dy(int k) { return k < 3 ? -1 : k < 5 ? 0 : 1; }
__host__ __device__ inline int clampi(int v) { return v < 0 ? 0 : v >= side ? side - 1 : v; }

__global__ void global_taps(const float *in, float *out) {
  const int x = threadIdx.x, y = blockIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < taps; ++k)
    sum += in[clampi(y + tap_dy(k)) * side + clampi(x + tap_dx(k))];
  out[y * side + x] = sum;
}

__global__ void fetch1d_taps(cudaTextureObject_t t, float *out) {
  const int x = threadIdx.x, y = blockIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < taps; ++k)
    sum += tex1Dfetch<float>(t, clampi(y + tap_dy(k)) * side + clampi(x + tap_dx(k)));
  out[y * side + x] = sum;
}

__global__ void tex2d_taps(cudaTextureObject_t t, float *out, float shift) {
  const int x = threadIdx.x, y = blockIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < taps; ++k)
    sum += tex2D<float>(t, x + tap_dx(k) + shift, y + tap_dy(k) + shift);
  out[y * side + x] = sum;
}

static cudaTextureObject_t make_2d(cudaArray_t a, cudaTextureFilterMode filter) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc desc = {};
  desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeClamp;
  desc.filterMode = filter;
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &desc, nullptr);
  return t;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const int n = side * side;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = (float)((i * 7919) % 1000) * 0.25f;
  float *in, *out_global, *out_tex;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess || cudaMalloc(&out_global, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out_tex, n * sizeof(float)) != cudaSuccess) {
    std::printf("error: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeLinear;
  lres.res.linear.devPtr = in;
  lres.res.linear.desc = cudaCreateChannelDesc<float>();
  lres.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc ldesc = {};
  ldesc.readMode = cudaReadModeElementType;
  cudaTextureObject_t t1 = 0;
  cudaCreateTextureObject(&t1, &lres, &ldesc, nullptr);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &cd, side, side);
  cudaMemcpy2DToArray(a, 0, 0, host.data(), side * sizeof(float), side * sizeof(float), side, cudaMemcpyHostToDevice);
  cudaTextureObject_t tp = make_2d(a, cudaFilterModePoint), tl = make_2d(a, cudaFilterModeLinear);
  if (!t1 || !tp || !tl) {
    std::printf("error: cudaCreateTextureObject\n");
    return 1;
  }
  const double per = (double)n * taps;
  const char *names[4] = {"global", "fetch1d", "2d_point", "2d_linear"};
  std::vector<double> samples[4];
  double best[4] = {1e300, 1e300, 1e300, 1e300};
  std::vector<float> ref(n), got(n);
  for (int r = 0; r < rounds; ++r) {
    for (int v = 0; v < 4; ++v) {
      double t0 = cpu_ns();
      if (v == 0)
        global_taps<<<side, threads>>>(in, out_global);
      else if (v == 1)
        fetch1d_taps<<<side, threads>>>(t1, out_tex);
      else
        tex2d_taps<<<side, threads>>>(v == 2 ? tp : tl, out_tex, v == 2 ? 0.5f : 0.3f);
      if (cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("error: kernel %s failed\n", names[v]);
        return 1;
      }
      const double ns = (cpu_ns() - t0) / per;
      samples[v].push_back(ns);
      best[v] = ns < best[v] ? ns : best[v];
      if (r != 0)
        continue;
      // The first round checks the results.
      if (v == 0) {
        cudaMemcpy(ref.data(), out_global, n * sizeof(float), cudaMemcpyDeviceToHost);
        continue;
      }
      cudaMemcpy(got.data(), out_tex, n * sizeof(float), cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; ++i) {
        float want = ref[i];
        if (v == 3) {
          // Linear at +0.3: each tap is the bilinear mix around (x - 0.2, y - 0.2).
          want = 0.0f;
          const int x = i % side, y = i / side;
          for (int k = 0; k < taps; ++k) {
            const float fx = x + tap_dx(k) - 0.2f, fy = y + tap_dy(k) - 0.2f;
            const int ix = (int)std::floor(fx), iy = (int)std::floor(fy);
            const float ax = fx - ix, ay = fy - iy;
            auto at = [&](int xx, int yy) { return host[clampi(yy) * side + clampi(xx)]; };
            want += (1 - ax) * (1 - ay) * at(ix, iy) + ax * (1 - ay) * at(ix + 1, iy) + (1 - ax) * ay * at(ix, iy + 1) +
                    ax * ay * at(ix + 1, iy + 1);
          }
          if (std::fabs(got[i] - want) <= 8.0f)
            continue;
        } else if (got[i] == want) {
          continue;
        }
        std::printf("error: %s: element %d is %.9g, expected %.9g\n", names[v], i, got[i], want);
        return 1;
      }
    }
  }
  for (int v = 0; v < 4; ++v) {
    std::printf("texture_%s_ns:", names[v]);
    for (double s : samples[v])
      std::printf(" %.2f", s);
    std::printf("\n");
  }
  std::printf("texture_ratio: %.2f %.2f %.2f\n", best[1] / best[0], best[2] / best[0], best[3] / best[0]);
  cudaDestroyTextureObject(t1);
  cudaDestroyTextureObject(tp);
  cudaDestroyTextureObject(tl);
  cudaFreeArray(a);
  cudaFree(in);
  cudaFree(out_global);
  cudaFree(out_tex);
  return 0;
}
