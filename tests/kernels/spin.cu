// spin.cu: threads that wait for each other with __nanosleep, as code with
// independent thread scheduling may. `handshake` completes; `spin_forever`
// cannot (thread 0 spins for a flag that the other threads set only after
// a barrier that thread 0 never reaches), on a GPU as here.

extern "C" __global__ void handshake(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (*flag == 0)
      __nanosleep(100);
    out[0] = *flag;
  } else if (threadIdx.x == blockDim.x - 1) {
    *flag = 42;
  }
}

extern "C" __global__ void spin_forever(volatile int *flag) {
  if (threadIdx.x == 0) {
    while (*flag == 0)
      __nanosleep(100);
  } else {
    __syncthreads();
    *flag = 1;
  }
}

extern "C" __global__ void count_blocks(int *counter) {
  if (threadIdx.x == 0)
    atomicAdd(counter, 1);
  __syncthreads();
}
