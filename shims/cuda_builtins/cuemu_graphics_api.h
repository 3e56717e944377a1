/*
 * cuemu_graphics_api.h: the runtime's graphics interop calls that take a
 * registered resource (cudaGraphicsMapResources, ...). An emulated device
 * has no graphics API to register one with (cudaGraphicsGLRegisterBuffer
 * and the other registering calls live in the OpenGL, Direct3D, Vulkan and
 * EGL interop headers, which cuemu lacks), so no cudaGraphicsResource_t
 * exists: each call is cudaErrorInvalidResourceHandle, after
 * cudaErrorInvalidValue for a NULL output, a count below 1 or a flag CUDA
 * does not define. They exist so that a program that names them for a
 * path it takes only with a display compiles. Included at the end of
 * cuda_runtime_api.h.
 */
#ifndef CUEMU_GRAPHICS_API_H
#define CUEMU_GRAPHICS_API_H

#include "cuda_runtime_api.h"

#include "cuemu_graphics_types.h"

namespace cuemu {
namespace rt {
/* cudaErrorInvalidValue when `valid` is 0, else
 * cudaErrorInvalidResourceHandle: no resource exists. */
inline cudaError_t __cuemu_graphics_refusal(bool __cuemu_valid) {
  return static_cast<cudaError_t>(cuemu_rt_error(
      __cuemu_valid ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue));
}
} // namespace rt
} // namespace cuemu

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t __cuemu_resource) {
  (void)__cuemu_resource;
  return cuemu::rt::__cuemu_graphics_refusal(true);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t __cuemu_resource,
                                                   unsigned int __cuemu_flags) {
  (void)__cuemu_resource;
  return cuemu::rt::__cuemu_graphics_refusal(__cuemu_flags <= cudaGraphicsMapFlagsWriteDiscard);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsMapResources(int __cuemu_count,
                                            cudaGraphicsResource_t *__cuemu_resources,
                                            cudaStream_t __cuemu_stream = 0) {
  (void)__cuemu_stream;
  return cuemu::rt::__cuemu_graphics_refusal(__cuemu_count > 0 && __cuemu_resources);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsUnmapResources(int __cuemu_count,
                                              cudaGraphicsResource_t *__cuemu_resources,
                                              cudaStream_t __cuemu_stream = 0) {
  (void)__cuemu_stream;
  return cuemu::rt::__cuemu_graphics_refusal(__cuemu_count > 0 && __cuemu_resources);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsResourceGetMappedPointer(
    void **__cuemu_ptr, size_t *__cuemu_size, cudaGraphicsResource_t __cuemu_resource) {
  (void)__cuemu_resource;
  return cuemu::rt::__cuemu_graphics_refusal(__cuemu_ptr && __cuemu_size);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsSubResourceGetMappedArray(
    cudaArray_t *__cuemu_array, cudaGraphicsResource_t __cuemu_resource,
    unsigned int __cuemu_index, unsigned int __cuemu_level) {
  (void)__cuemu_resource;
  (void)__cuemu_index;
  (void)__cuemu_level;
  return cuemu::rt::__cuemu_graphics_refusal(__cuemu_array);
}

/* cuemu-status: refused (no graphics API registers a resource) */
inline cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(
    cudaMipmappedArray_t *__cuemu_mipmap, cudaGraphicsResource_t __cuemu_resource) {
  (void)__cuemu_resource;
  return cuemu::rt::__cuemu_graphics_refusal(__cuemu_mipmap);
}

#endif /* CUEMU_GRAPHICS_API_H */
