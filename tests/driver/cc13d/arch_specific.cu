// arch_specific.cu: what a kernel sees of an architecture-specific (sm_90a)
// or family-specific (sm_100f) target, and whether the device runs it.
// Prints the launch's error name and the device pass's __CUDA_ARCH__,
// __CUDA_ARCH_SPECIFIC__, __CUDA_ARCH_FAMILY_SPECIFIC__ and whether a
// __CUDA_ARCH_FEAT_SMxx_ALL is defined (0 where a macro is not), and
// whether host code sees __CUDA_ARCH_SPECIFIC__ (it does not, with nvcc).
#include <cstdio>
#include <cstdlib>

#if __has_include(<cuemu/cuemu.h>)
#include <cuemu/cuemu.h>
#define HAVE_CUEMU_MESSAGES 1
#endif

__global__ void probe_target(int *out)
{
#ifdef __CUDA_ARCH__
  out[0] = __CUDA_ARCH__;
#endif
#ifdef __CUDA_ARCH_SPECIFIC__
  out[1] = __CUDA_ARCH_SPECIFIC__;
#endif
#ifdef __CUDA_ARCH_FAMILY_SPECIFIC__
  out[2] = __CUDA_ARCH_FAMILY_SPECIFIC__;
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
  out[3] = 1;
#endif
}

int main()
{
  int *seen = nullptr;
  int host[4] = {0, 0, 0, 0};
  if (cudaMalloc(&seen, sizeof host) != cudaSuccess ||
      cudaMemset(seen, 0, sizeof host) != cudaSuccess) {
    std::printf("no device memory\n");
    return 1;
  }
  probe_target<<<1, 1>>>(seen);
  cudaError_t launched = cudaGetLastError();
  cudaDeviceSynchronize();
  cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost);
#ifdef __CUDA_ARCH_SPECIFIC__
  const int host_specific = 1;
#else
  const int host_specific = 0;
#endif
  std::printf("%s arch %d specific %d family %d feat %d host %d\n",
              cudaGetErrorName(launched), host[0], host[1], host[2], host[3],
              host_specific);
#ifdef HAVE_CUEMU_MESSAGES
  /* cuemu's report of a missing image names the kernel and the images
   * (ARCH_SPECIFIC_MESSAGE=1: printed on stderr). */
  if (launched == cudaErrorNoKernelImageForDevice &&
      std::getenv("ARCH_SPECIFIC_MESSAGE"))
    std::fprintf(stderr, "%s\n", cuemu_last_message());
#endif
  cudaFree(seen);
  return 0;
}
