/*
 * cuda_gl_interop.h: the runtime's OpenGL interop calls, in front of the
 * toolkit's header of that name (which declares functions that only
 * NVIDIA's libcudart defines, so that a program calling them failed to
 * link). No OpenGL context is on an emulated device, so these answer as
 * CUDA does on a machine whose context is on no CUDA device:
 * cudaGLGetDevices finds none (cudaErrorNoDevice, a count of 0); registering
 * a buffer or an image is cudaErrorInvalidGraphicsContext; the buffer-object
 * calls that CUDA 3.0 deprecated find no registered object
 * (cudaErrorMapBufferObjectFailed, cudaErrorUnmapBufferObjectFailed,
 * cudaErrorInvalidResourceHandle); each after cudaErrorInvalidValue for a
 * NULL output or an unknown flag. cudaGLSetGLDevice, deprecated since
 * CUDA 5 (a device no longer needs tying to a context), is cudaSetDevice.
 * A program written for a display (CUDA by Example's chapter 8, GLUT
 * viewers) thus builds, and stops at its first registration with CUDA's
 * status. C++ only, like the other inline runtime calls. Includes
 * <GL/gl.h>, as the toolkit's header does, for GLuint and GLenum.
 */
#ifndef CUEMU_CUDA_GL_INTEROP_H
#define CUEMU_CUDA_GL_INTEROP_H
#define __CUDA_GL_INTEROP_H__

#include "cuda_runtime_api.h"

#if defined(__APPLE__)
#include <OpenGL/gl.h>
#elif (defined(__arm__) || defined(__aarch64__)) && !defined(GL_VERSION)
#error Please include the appropriate gl headers before including cuda_gl_interop.h
#elif !defined(__arm__) && !defined(__aarch64__)
#include <GL/gl.h>
#endif

/* The calls CUDA deprecated warn, as the toolkit's do, unless
 * CUDA_ENABLE_DEPRECATED is defined. */
#if defined(CUDA_ENABLE_DEPRECATED)
#define CUEMU_GL_DEPRECATED
#else
#define CUEMU_GL_DEPRECATED __attribute__((deprecated))
#endif

enum cudaGLDeviceList {
  cudaGLDeviceListAll = 1,
  cudaGLDeviceListCurrentFrame = 2,
  cudaGLDeviceListNextFrame = 3
};

enum cudaGLMapFlags {
  cudaGLMapFlagsNone = 0,
  cudaGLMapFlagsReadOnly = 1,
  cudaGLMapFlagsWriteDiscard = 2
};

namespace cuemu {
namespace rt {
/* The flags a registration may carry (cudaGraphicsRegisterFlags). */
inline bool __cuemu_gl_register_flags_known(unsigned int __cuemu_flags) {
  return !(__cuemu_flags & ~static_cast<unsigned int>(
                               cudaGraphicsRegisterFlagsReadOnly |
                               cudaGraphicsRegisterFlagsWriteDiscard |
                               cudaGraphicsRegisterFlagsSurfaceLoadStore |
                               cudaGraphicsRegisterFlagsTextureGather));
}

/* A registration: cudaErrorInvalidValue when `valid` is false, else
 * cudaErrorInvalidGraphicsContext (the current OpenGL context, if any, is
 * on no emulated device). */
inline cudaError_t __cuemu_gl_register(cudaGraphicsResource **__cuemu_resource,
                                       bool __cuemu_valid) {
  if (!__cuemu_valid)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  if (__cuemu_resource)
    *__cuemu_resource = nullptr;
  return cuemu_rt_fail(cudaErrorInvalidGraphicsContext);
}
} // namespace rt
} // namespace cuemu

/* cuemu-status: refused (no OpenGL context is on an emulated device) */
inline cudaError_t cudaGLGetDevices(unsigned int *__cuemu_pCudaDeviceCount,
                                    int *__cuemu_pCudaDevices,
                                    unsigned int __cuemu_cudaDeviceCount,
                                    enum cudaGLDeviceList __cuemu_deviceList) {
  (void)__cuemu_pCudaDevices;
  (void)__cuemu_cudaDeviceCount;
  if (!__cuemu_pCudaDeviceCount || __cuemu_deviceList < cudaGLDeviceListAll ||
      __cuemu_deviceList > cudaGLDeviceListNextFrame)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  *__cuemu_pCudaDeviceCount = 0;
  return cuemu_rt_fail(cudaErrorNoDevice);
}

/* cuemu-status: refused (no OpenGL context is on an emulated device) */
inline cudaError_t
cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **__cuemu_resource,
                             GLuint __cuemu_buffer,
                             unsigned int __cuemu_flags) {
  (void)__cuemu_buffer;
  return cuemu::rt::__cuemu_gl_register(
      __cuemu_resource,
      __cuemu_resource &&
          cuemu::rt::__cuemu_gl_register_flags_known(__cuemu_flags));
}

/* cuemu-status: refused (no OpenGL context is on an emulated device) */
inline cudaError_t
cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **__cuemu_resource,
                            GLuint __cuemu_image, GLenum __cuemu_target,
                            unsigned int __cuemu_flags) {
  (void)__cuemu_image;
  (void)__cuemu_target;
  return cuemu::rt::__cuemu_gl_register(
      __cuemu_resource,
      __cuemu_resource &&
          cuemu::rt::__cuemu_gl_register_flags_known(__cuemu_flags));
}

/* cuemu-status: implemented (cudaSetDevice: CUDA 5 made the call needless) */
CUEMU_GL_DEPRECATED inline cudaError_t cudaGLSetGLDevice(int __cuemu_device) {
  return cudaSetDevice(__cuemu_device);
}

/* cuemu-status: refused (no OpenGL context is on an emulated device) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLRegisterBufferObject(GLuint __cuemu_bufObj) {
  (void)__cuemu_bufObj;
  return cuemu::rt::__cuemu_gl_register(nullptr, true);
}

/* cuemu-status: refused (no buffer object is registered) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLMapBufferObject(void **__cuemu_devPtr, GLuint __cuemu_bufObj) {
  (void)__cuemu_bufObj;
  if (!__cuemu_devPtr)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  return cuemu_rt_fail(cudaErrorMapBufferObjectFailed);
}

/* cuemu-status: refused (no buffer object is registered) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLMapBufferObjectAsync(void **__cuemu_devPtr, GLuint __cuemu_bufObj,
                           cudaStream_t __cuemu_stream) {
  (void)__cuemu_stream;
  if (!__cuemu_devPtr)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  (void)__cuemu_bufObj;
  return cuemu_rt_fail(cudaErrorMapBufferObjectFailed);
}

/* cuemu-status: refused (no buffer object is registered) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLUnmapBufferObject(GLuint __cuemu_bufObj) {
  (void)__cuemu_bufObj;
  return cuemu_rt_fail(cudaErrorUnmapBufferObjectFailed);
}

/* cuemu-status: refused (no buffer object is registered) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLUnmapBufferObjectAsync(GLuint __cuemu_bufObj,
                             cudaStream_t __cuemu_stream) {
  (void)__cuemu_bufObj;
  (void)__cuemu_stream;
  return cuemu_rt_fail(cudaErrorUnmapBufferObjectFailed);
}

/* cuemu-status: refused (no buffer object is registered) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLUnregisterBufferObject(GLuint __cuemu_bufObj) {
  (void)__cuemu_bufObj;
  return cuemu_rt_fail(cudaErrorInvalidResourceHandle);
}

/* cuemu-status: refused (no buffer object is registered) */
CUEMU_GL_DEPRECATED inline cudaError_t
cudaGLSetBufferObjectMapFlags(GLuint __cuemu_bufObj,
                              unsigned int __cuemu_flags) {
  (void)__cuemu_bufObj;
  if (__cuemu_flags > cudaGLMapFlagsWriteDiscard)
    return cuemu_rt_fail(cudaErrorInvalidValue);
  return cuemu_rt_fail(cudaErrorInvalidResourceHandle);
}

#undef CUEMU_GL_DEPRECATED

#endif /* CUEMU_CUDA_GL_INTEROP_H */
