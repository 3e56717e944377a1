// release_publish.cu: locks released by a libcu++ release operation
// publish the critical section's plain accesses to the next holder, as
// __threadfence() does, so the racecheck of global memory must accept them
// (tests/checkers_clean.sh runs this under --check=all): a spin lock taken
// with compare_exchange(acquire) and released by store(release),
// exchange(release), exchange(acq_rel) or fetch_sub(release) (st.release,
// atom.exch.release, atom.exch.acq_rel, atom.add.release in libcu++'s
// PTX), or by CUDA's __nv_atomic_store_n(release),
// __nv_atomic_exchange_n(seq_cst) or __nv_atomic_fetch_sub(acq_rel), and a
// ticket lock advanced by fetch_add(release). Threads of one
// warp contend for the lock. An optional argument runs one mode alone. (The same handoff with a relaxed
// store is tests/buggy/race_global_release_relaxed.cu.)
#include <cstdio>
#include <cstdlib>
#include <cuda/atomic>

enum { kStore, kExchange, kExchangeAcqRel, kFetchSub, kNvStore, kNvExchange, kNvFetchSub, kTicket };

__global__ void guarded(int mode, int* lock, unsigned* tickets, unsigned long long* sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
  if (mode == kTicket) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> next(tickets[0]), serving(tickets[1]);
    const unsigned t = next.fetch_add(1u, cuda::std::memory_order_relaxed);
    while (serving.load(cuda::std::memory_order_acquire) != t) __nanosleep(16);
    *sum += (unsigned long long)i;
    serving.fetch_add(1u, cuda::std::memory_order_release);
    return;
  }
  int expected = 0;
  while (!l.compare_exchange_strong(expected, 1, cuda::std::memory_order_acquire, cuda::std::memory_order_relaxed))
    expected = 0;
  *sum += (unsigned long long)i;
  if (mode == kStore) l.store(0, cuda::std::memory_order_release);
  else if (mode == kExchange) l.exchange(0, cuda::std::memory_order_release);
  else if (mode == kExchangeAcqRel) l.exchange(0, cuda::std::memory_order_acq_rel);
  else if (mode == kFetchSub) l.fetch_sub(1, cuda::std::memory_order_release);
  else if (mode == kNvStore) __nv_atomic_store_n(lock, 0, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  else if (mode == kNvExchange) __nv_atomic_exchange_n(lock, 0, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  else __nv_atomic_fetch_sub(lock, 1, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
}

int main(int argc, char** argv) {
  int* lock;
  unsigned* tickets;
  unsigned long long* sum;
  cudaMalloc(&lock, sizeof(int));
  cudaMalloc(&tickets, 2 * sizeof(unsigned));
  cudaMalloc(&sum, sizeof(unsigned long long));
  const int n = 300;
  int bad = 0;
  const int first = argc > 1 ? atoi(argv[1]) : kStore, last = argc > 1 ? first : kTicket;
  for (int mode = first; mode <= last; ++mode) {
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(tickets, 0, 2 * sizeof(unsigned));
    cudaMemset(sum, 0, sizeof(unsigned long long));
    guarded<<<(n + 63) / 64, 64>>>(mode, lock, tickets, sum, n);
    unsigned long long s = 0;
    cudaError_t e = cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess || s != 1ull * n * (n - 1) / 2) {
      std::printf("mode %d: %s, sum %llu\n", mode, cudaGetErrorString(e), s);
      ++bad;
    }
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
