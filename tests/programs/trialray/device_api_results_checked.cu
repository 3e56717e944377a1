/* Reduced from a ray tracer whose box object, made by `new` in a kernel,
 * allocates its list of sides with the device runtime's cudaMalloc into one
 * of its own members, then fills the list:
 *   __device__ box::box(...) { cudaMalloc((void **)&d_list, 6 * sizeof(hitable *));
 *                              d_list[0] = new xy_rect(...); ... }
 * Under initcheck (--check=init, or CUEMU_CC_CHECK=all) the read of d_list
 * was reported as a read of uninitialised device-heap memory: the runtime
 * stores the new pointer itself, where the checked kernel code does not
 * see the store. The device runtime's calls that return a value through a
 * pointer (cudaMalloc, cudaGetDevice, cudaDeviceGetAttribute,
 * cudaStreamCreateWithFlags) now mark those bytes written. Then the next
 * kernel's read of the list was reported: the checkers of the launch that
 * allocated it did not know the new allocation, so its writes were not
 * seen; memory that kernel code allocates is now taken for written. A
 * correct program: nothing may be reported.
 * CUEMU_OPTIONS: -rdc=true --check=init,mem
 * NVCC_OPTIONS: -rdc=true */
#include <cstddef>
#include <cstdio>

struct Sides {
  int count;
  int **slots;
  __device__ Sides(int n) : count(n) {
    cudaMalloc((void **)&slots, n * sizeof(int *));
    for (int i = 0; i < n; i++)
      slots[i] = new int(10 * i);
  }
  __device__ ~Sides() {
    for (int i = 0; i < count; i++)
      delete slots[i];
    cudaFree(slots);
  }
};

struct Results {
  int device, warp, total;
  cudaStream_t stream;
};

__global__ void build(int *sum, Results *r) {
  Sides *s = new Sides(6);
  int total = 0;
  for (int i = 0; i < s->count; i++)
    total += *s->slots[i];
  delete s;
  *sum = total;
  /* Results into global memory, read back by the kernel itself. */
  cudaGetDevice(&r->device);
  cudaDeviceGetAttribute(&r->warp, cudaDevAttrWarpSize, r->device);
  cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking);
  r->total = r->warp + (r->stream != 0 ? 1 : 0);
  cudaStreamDestroy(r->stream);
}

/* A table that one kernel allocates and fills, and the next reads. */
__global__ void fill(int **table) {
  int *t;
  cudaMalloc((void **)&t, 4 * sizeof(int));
  for (int i = 0; i < 4; i++)
    t[i] = i + 1;
  *table = t;
}

__global__ void read_back(int **table, int *sum) {
  int s = 0;
  for (int i = 0; i < 4; i++)
    s += (*table)[i];
  *sum += s;
  cudaFree(*table);
}

int main() {
  int *sum;
  Results *r;
  int **table;
  cudaMallocManaged(&sum, sizeof(int));
  cudaMalloc(&r, sizeof(Results));
  cudaMalloc(&table, sizeof(int *));
  build<<<1, 1>>>(sum, r);
  fill<<<1, 1>>>(table);
  read_back<<<1, 1>>>(table, sum);
  cudaError_t e = cudaDeviceSynchronize();
  /* The ints only: the 4 bytes of padding before `stream` are never
   * written, and initcheck reports a copy of unwritten bytes, as
   * compute-sanitizer's does ("on access by cudaMemcpy source"). */
  Results h;
  cudaMemcpy(&h, r, offsetof(Results, total) + sizeof h.total,
             cudaMemcpyDeviceToHost);
  int failures = 0;
  if (e != cudaSuccess) {
    printf("kernel: %s\n", cudaGetErrorString(e));
    failures++;
  } else if (*sum != 160 || h.warp != 32 || h.total != 33 || h.device != 0) {
    printf("sum %d, warp %d, total %d, device %d\n", *sum, h.warp, h.total,
           h.device);
    failures++;
  }
  cudaFree(sum);
  cudaFree(r);
  cudaFree(table);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
