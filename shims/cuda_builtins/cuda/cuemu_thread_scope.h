/*
 * cuda/cuemu_thread_scope.h: libcu++'s thread scopes, cuda::thread_scope
 * and its values thread_scope_system, thread_scope_device,
 * thread_scope_block and thread_scope_thread (defined in cuda::std and
 * named in cuda as well, with CUDA 13's values), for <cuda/barrier>.
 */
#ifndef CUEMU_CUDA_THREAD_SCOPE_H
#define CUEMU_CUDA_THREAD_SCOPE_H

namespace cuda {
namespace std {

enum thread_scope {
  thread_scope_system = 0,
  thread_scope_device = 1,
  thread_scope_block = 2,
  thread_scope_thread = 10
};

} // namespace std

using ::cuda::std::thread_scope;
using ::cuda::std::thread_scope_block;
using ::cuda::std::thread_scope_device;
using ::cuda::std::thread_scope_system;
using ::cuda::std::thread_scope_thread;

} // namespace cuda

#endif /* CUEMU_CUDA_THREAD_SCOPE_H */
