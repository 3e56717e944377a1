// faults_kernels.cuh: the kernels of faults.cu, in a header as real code
// keeps them: templates and device functions with the bugs people make.
// Lines marked "@name" are looked up by tests/programs_trialbugs.sh.
#pragma once
#include <cuda_runtime.h>

namespace faults {

/* A vectorised AXPY's loads through a float4 view of a float array. */
template <typename V>
__device__ __forceinline__ V load_vec(const float *p) {
  return *reinterpret_cast<const V *>(p); // @vec_load
}

__global__ void axpy4(float a, const float *x, float *y, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 xv = load_vec<float4>(x + 4 * i);
    float4 yv = load_vec<float4>(y + 4 * i);
    yv.x += a * xv.x;
    yv.y += a * xv.y;
    yv.z += a * xv.z;
    yv.w += a * xv.w;
    reinterpret_cast<float4 *>(y)[i] = yv;
  }
}

/* A one-node list on the device heap, freed by a helper that frees the
 * tail, and the head again when `twice` (the bug: head == tail). */
struct Node {
  int v;
  Node *next;
};

__device__ void free_list(Node *head, Node *tail, bool twice) {
  for (Node *p = head; p && p != tail;) {
    Node *n = p->next;
    free(p);
    p = n;
  }
  if (tail)
    free(tail);
  if (twice && head == tail)
    free(head); // @heap_second_free
}

__global__ void one_node_lists(int *out, bool twice) {
  Node *a = static_cast<Node *>(malloc(sizeof(Node)));
  if (!a) {
    out[threadIdx.x] = -1;
    return;
  }
  a->v = (int)threadIdx.x;
  a->next = nullptr;
  out[threadIdx.x] = a->v;
  free_list(a, a, twice);
}

/* A recursion as deep as its input: a 64 KiB stack (CUEMU_STACK_SIZE; 1 KiB
 * on a GPU, cudaLimitStackSize) holds a few hundred levels. */
__device__ int depth_sum(const int *a, int i, int n) { // @recursion
  if (i >= n)
    return 0;
  volatile int frame[16];
  for (int k = 0; k < 16; ++k)
    frame[k] = a[i] + k;
  int rest = depth_sum(a, i + 1, n);
  return frame[i % 16] + rest;
}

__global__ void walk(const int *a, int n, int *out) {
  out[threadIdx.x] = depth_sum(a, 0, n);
}

/* Warp 0 fills a table and raises a flag that the other warps poll. With
 * `divergent`, the barrier that orders the table sits in warp 0's branch
 * while the others spin: a hang on a GPU. Otherwise the flag is raised and
 * polled with atomics (`atomics`) or through a volatile pointer. */
__global__ void publish(const int *src, int *out, bool divergent,
                        bool atomics) {
  __shared__ int table[32];
  __shared__ int ready;
  volatile int *flag = &ready;
  if (threadIdx.x == 0)
    ready = 0;
  __syncthreads();
  if (threadIdx.x < 32) {
    table[threadIdx.x] = src[threadIdx.x] * 2;
    if (divergent)
      __syncthreads(); // @divergent_barrier
    else
      __syncwarp();
    if (threadIdx.x == 0) {
      if (atomics)
        atomicExch(&ready, 1);
      else
        *flag = 1;
    }
  } else if (atomics) {
    while (atomicOr(&ready, 0) == 0) {
    }
  } else {
    while (*flag == 0) {
    }
  }
  __syncthreads();
  out[threadIdx.x] = table[threadIdx.x % 32];
}

/* A message header packed in a static shared byte buffer: a 2-byte tag,
 * then the 4-byte length stored through an int pointer at byte `At`.
 * At 2 (right after the tag) the store is misaligned, which g++ knows and
 * which faults on a GPU; the fixed form leaves two bytes of padding. */
template <int At>
__global__ void pack_header(const int *lengths, unsigned char *out) {
  __shared__ unsigned char header[16];
  unsigned t = threadIdx.x;
  header[t] = 0;
  __syncthreads();
  if (t == 0) {
    header[0] = 0x7e;
    *reinterpret_cast<int *>(&header[At]) = lengths[0]; // @shared_header
  }
  __syncthreads();
  out[t] = header[t];
}

} // namespace faults
