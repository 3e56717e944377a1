// arch_module.cu: nvcc's -cubin (and the module that -Xptxas -v reads) is
// the device pass of nvcc's compile: __NVCC__, not NVRTC's __CUDACC_RTC__,
// under which the toolkit's cuda_pipeline.h declares fixed-width types of
// its own (cuemu once failed here: "conflicting declaration of uint64_t").
#if defined(__CUDACC_RTC__) || !defined(__NVCC__)
#error "a module of nvcc's is compiled with nvcc's macros"
#endif
#include <cuda_pipeline.h>
#include <cstdint>

extern "C" __global__ void copy_async(const float *in, float *out) {
  __shared__ float tile[128];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[threadIdx.x] + static_cast<float>(sizeof(uint64_t));
}
