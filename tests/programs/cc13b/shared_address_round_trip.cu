// shared_address_round_trip.cu: a shared-memory pointer converted to a
// 32-bit shared address (__cvta_generic_to_shared, as cp.async, ldmatrix
// and mbarrier code does) and back must give the same object, with
// address arithmetic on the 32-bit value, inline PTX loads and stores
// through it, static and dynamic shared memory, in every block of several
// launches; the generic addresses of the emulated shared memory lie above
// 4 GiB (a position-independent program's heap and thread storage), which
// a plain truncation to 32 bits would lose. Then 200 launches with
// dynamic shared memory of sizes from 1 to 226 KiB while the heap grows
// by 1 MiB each time, so that the dynamic part moves (each worker maps at
// most 16 regions of 128 MiB). Prints PASS.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

constexpr int kThreads = 64;
constexpr int kBlocks = 48;

__global__ void round_trip(int *errors, unsigned long long *highest) {
  __shared__ int tile[kThreads];
  __shared__ unsigned long long other;
  extern __shared__ int dynamic_part[];
  const int t = threadIdx.x;
  int bad = 0;
  const unsigned base =
      static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
  const unsigned mine =
      static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  // Arithmetic on the shared address is arithmetic on the pointer.
  bad += mine != base + 4u * static_cast<unsigned>(t);
  bad += __cvta_shared_to_generic(mine) != static_cast<void *>(&tile[t]);
  bad += base == 0u;
  // A store and a load of PTX through the 32-bit address.
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(mine), "r"(t * 3 + 1)
               : "memory");
  __syncthreads();
  const unsigned next = base + 4u * static_cast<unsigned>((t + 1) % kThreads);
  int loaded = 0;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(loaded) : "r"(next) : "memory");
  bad += loaded != ((t + 1) % kThreads) * 3 + 1;
  bad += tile[t] != t * 3 + 1;
  // Dynamic shared memory and another variable: their own addresses.
  const unsigned dyn =
      static_cast<unsigned>(__cvta_generic_to_shared(&dynamic_part[t]));
  static_cast<int *>(__cvta_shared_to_generic(dyn))[0] = -t;
  const unsigned o = static_cast<unsigned>(__cvta_generic_to_shared(&other));
  bad += o == base || dyn == mine;
  bad += __cvta_shared_to_generic(o) != static_cast<void *>(&other);
  __syncthreads();
  bad += dynamic_part[t] != -t;
  // Every thread of the block sees one shared address per variable.
  __shared__ unsigned first_base;
  if (t == 0)
    first_base = base;
  __syncthreads();
  bad += first_base != base;
  if (bad)
    atomicAdd(errors, bad);
  atomicMax(highest, static_cast<unsigned long long>(
                         reinterpret_cast<uintptr_t>(&tile[t])));
}

__global__ void dynamic_round_trip(int *errors) {
  extern __shared__ int dynamic_part[];
  const unsigned a = static_cast<unsigned>(
      __cvta_generic_to_shared(&dynamic_part[threadIdx.x]));
  if (__cvta_shared_to_generic(a) !=
      static_cast<void *>(&dynamic_part[threadIdx.x]))
    atomicAdd(errors, 1);
}

int main() {
  int *errors = nullptr;
  unsigned long long *highest = nullptr;
  if (cudaMallocManaged(&errors, sizeof *errors) != cudaSuccess ||
      cudaMallocManaged(&highest, sizeof *highest) != cudaSuccess)
    return 1;
  *errors = 0;
  *highest = 0;
  for (int launch = 0; launch < 3; ++launch)
    round_trip<<<kBlocks, kThreads, kThreads * sizeof(int) * (launch + 1)>>>(
        errors, highest);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  const int static_errors = *errors;
  if (cudaFuncSetAttribute(dynamic_round_trip,
                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                           227 * 1024) != cudaSuccess)
    return 1;
  constexpr int kMoves = 200;
  static void *heap[kMoves];
  for (int i = 0; i < kMoves; ++i) {
    const size_t bytes = 1024u * static_cast<size_t>(1 + (i * 37) % 226);
    dynamic_round_trip<<<8, 32, bytes>>>(errors);
    heap[i] = malloc(1u << 20);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      printf("launch %d failed: %s\n", i,
             cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
  }
  for (int i = 0; i < kMoves; ++i)
    free(heap[i]);
  printf("errors %d (%d with moving dynamic shared memory), highest generic "
         "shared address %#llx\n",
         *errors, *errors - static_errors, *highest);
  if (*errors == 0)
    printf("PASS\n");
  return 0;
}
