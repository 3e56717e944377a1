// many_small_allocations.cu: each device allocation used to be a mapping
// of its own plus a guard page, two of the process's vm.max_map_count
// (65,530) mappings: 100,000 cudaMalloc(16), which a GPU serves, failed at
// the 32,962nd with cudaErrorMemoryAllocation (and live stream-ordered
// blocks of a pool at the 32,736th), and the threads cuemu starts could no
// longer be created. Past a budget of guarded mappings, small allocations
// are now pieces of shared slabs and pool blocks have no guard page. The
// budget is checked in a child process with CUEMU_MAX_MAP_COUNT lowered
// (a budget of 250 guarded allocations), the system's limit in the parent.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "../check.cuh"

// Writes value(i) into the 16-byte allocation `pointers[i]`.
__global__ void fill(int **pointers, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < 4; ++k)
      pointers[i][k] = i * 4 + k;
}

// Makes `n` allocations of `bytes` with `allocate`, fills each with the
// kernel and checks each one's contents and alignment; frees them with
// `release`. Returns how many were made.
template <typename Allocate, typename Release>
static int exercise(int n, Allocate allocate, Release release) {
  std::vector<int *> pointers;
  pointers.reserve(n);
  for (int i = 0; i < n; ++i) {
    int *p = nullptr;
    cudaError_t e = allocate(&p);
    if (e != cudaSuccess) {
      std::fprintf(stderr, "allocation %d of %d: %s\n", i, n,
                   cudaGetErrorString(e));
      break;
    }
    pointers.push_back(p);
  }
  int made = (int)pointers.size();
  int misaligned = 0;
  for (int *p : pointers)
    misaligned += (uintptr_t)p % 512 != 0; // textureAlignment
  CHECK(misaligned == 0);
  int **table = nullptr;
  CHECK(cudaMalloc(&table, made * sizeof(int *)) == cudaSuccess);
  CHECK(cudaMemcpy(table, pointers.data(), made * sizeof(int *),
                   cudaMemcpyHostToDevice) == cudaSuccess);
  fill<<<(made + 255) / 256, 256>>>(table, made);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < made; ++i) {
    int got[4];
    if (cudaMemcpy(got, pointers[i], sizeof got, cudaMemcpyDeviceToHost) !=
        cudaSuccess) {
      ++wrong;
      continue;
    }
    for (int k = 0; k < 4; ++k)
      wrong += got[k] != i * 4 + k;
  }
  CHECK(wrong == 0);
  int failed_frees = 0;
  for (int *p : pointers)
    failed_frees += release(p) != cudaSuccess;
  CHECK(failed_frees == 0);
  CHECK(cudaFree(table) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return made;
}

static cudaError_t malloc16(int **p) { return cudaMalloc(p, 16); }
static cudaError_t free_sync(int *p) { return cudaFree(p); }
static cudaError_t malloc_async16(int **p) {
  return cudaMallocAsync(p, 16, 0);
}
static cudaError_t free_async(int *p) { return cudaFreeAsync(p, 0); }

// With a budget of 250 guarded allocations: past it, both kinds still
// work, again and again.
static int child() {
  setenv("CUEMU_MAX_MAP_COUNT", "2000", 1);
  for (int round = 0; round < 2; ++round) {
    CHECK(exercise(1000, malloc16, free_sync) == 1000);
    CHECK(exercise(1000, malloc_async16, free_async) == 1000);
  }
  return check_failures ? 1 : 0;
}

int main() {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(60);
    _exit(child());
  }
  int status = -1;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  // The system's own limit: 100,000 at once.
  CHECK(exercise(100000, malloc16, free_sync) == 100000);
  return finish();
}
