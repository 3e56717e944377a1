/* common/lock.h: a spin lock in device memory, allocated by its host
 * constructor and copied to the device by value (an array of them). */
#ifndef TRIAL17_LOCK_H
#define TRIAL17_LOCK_H

struct Lock {
  int *mutex;
  Lock(void) {
    HANDLE_ERROR(cudaMalloc((void **)&mutex, sizeof(int)));
    HANDLE_ERROR(cudaMemset(mutex, 0, sizeof(int)));
  }
  ~Lock(void) { cudaFree(mutex); }
  __device__ void lock(void) {
    while (atomicCAS(mutex, 0, 1) != 0)
      ;
    __threadfence();
  }
  __device__ void unlock(void) {
    __threadfence();
    atomicExch(mutex, 0);
  }
};

#endif
