// device_only_kernel_template.cu: a kernel template that only the device
// pass defines, and whose instance the device pass makes. nvcc's host pass
// writes a stub for every instance that its device pass compiles, and the
// stub names the template ("'tiled' was not declared in this scope"):
// nvcc refuses each -DREFUSED=N below, and cuemu-nvcc refuses it too, at
// the template's line. A textbook's N-body kept a tiled kernel template
// and the host function that launches its instance under such a guard
// (REFUSED=1), and the host code ran without them. REFUSED=2 makes the
// instance by a launch in device code (-rdc=true), REFUSED=3 by an
// explicit instantiation (in a namespace), REFUSED=4 by an explicit
// specialization alone (in an unnamed namespace). Without REFUSED, the
// near misses that nvcc builds: a template of the device pass alone that
// nothing instantiates, a template defined in both branches of the guard,
// and a template of both passes whose instance only the device pass makes;
// they build and run.
#include <cstdio>

#include <cuda_runtime.h>

#if REFUSED == 1
#if defined(__CUDA_ARCH__)
template <int Tile> __global__ void tiled(int *out) { out[0] = Tile; } // refused 1
void launch_tiled(int *out) { tiled<128><<<1, 1>>>(out); }
#endif
#elif REFUSED == 2
#if defined(__CUDA_ARCH__)
template <int Tile> __global__ void tiled(int *out) { out[0] = Tile; } // refused 2
#endif
__global__ void parent(int *out) {
#if defined(__CUDA_ARCH__)
  tiled<4><<<1, 1>>>(out);
#endif
}
#elif REFUSED == 3
namespace nbody {
#if defined(__CUDA_ARCH__)
template <typename T> __global__ void tiled(T *out) { out[0] = T(3); } // refused 3
template __global__ void tiled<float>(float *);
#endif
} // namespace nbody
#elif REFUSED == 4
namespace {
#if defined(__CUDA_ARCH__)
template <int Tile> __global__ void tiled(int *out) { out[0] = Tile; } // refused 4
template <> __global__ void tiled<5>(int *out) { out[0] = 55; }
#endif
} // namespace
#endif

#if defined(__CUDA_ARCH__)
template <int Tile> __global__ void never_instantiated(int *out) { out[0] = Tile; }
template <int Tile> __global__ void both_branches(int *out) { out[0] = Tile; }
void launch_both(int *out) { both_branches<128><<<1, 1>>>(out); }
#else
template <int Tile> __global__ void both_branches(int *out) { out[0] = -1; }
void launch_both(int *out) { both_branches<128><<<1, 1>>>(out); }
#endif

template <int Tile> __global__ void both_passes(int *out) { out[1] = Tile; }
#if defined(__CUDA_ARCH__)
void launch_in_device_pass(int *out) { both_passes<64><<<1, 1>>>(out); }
#endif

int main() {
  int *out = NULL;
  int host[2] = {0, 0};
  if (cudaMalloc(&out, sizeof host) != cudaSuccess) {
    printf("FAIL: cudaMalloc\n");
    return 1;
  }
  launch_both(out);
  both_passes<32><<<1, 1>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  if (host[0] != 128 || host[1] != 32) {
    printf("FAIL: %d %d, expected 128 32\n", host[0], host[1]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
