// stack_below_allocation.cu: a correct program built with memcheck, where a
// kernel thread's stack lies just below a tracked allocation. Stacks are
// mappings of their own, so the top of one (the first frames of its thread)
// may end where a buffer starts; memcheck used to take an access to the
// thread's own local variables there for an access before the start of the
// buffer (a false report seen now and then under load). The program makes
// the layout happen: it leaves a hole in the address space below a
// registered page, then launches a block with one more thread than before,
// so that the one new stack is mapped at the top of the hole. Stack tops are
// staggered by up to 64 cache lines, so 64 rounds give every offset; the
// program checks that at least one round put a thread's local variable
// within memcheck's 256-byte redzone of the page, and that no round was
// reported.
// CUEMU_OPTIONS: --check=mem
#include <cstdio>
#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kRounds = 64;
constexpr int kFirst = 64;
constexpr int kMax = kFirst + kRounds;

/* Each thread keeps a local array whose address escapes, so that checked
 * code checks its accesses, and records where its top byte lies. The loops
 * are not unrolled: clang++ (-ccbin clang++) unrolls them whole and spills
 * their values above the array, which then lay 400 bytes below the top of
 * the stack at least, too deep for any round to put it near the page. Each
 * thread stores its sum rather than adding it atomically: the shims'
 * atomicAdd, which notes its places under schedule perturbation, made
 * clang++'s frame deeper, and the array lay 257 bytes below the top. */
__global__ void sum_locals(const int *in, int *out, uintptr_t *where) {
  volatile char local[32];
#pragma unroll 1
  for (int i = 0; i < 32; ++i)
    local[i] = (char)(in[threadIdx.x] + i);
  __syncthreads();
  int s = 0;
#pragma unroll 1
  for (int i = 0; i < 32; ++i)
    s += local[i];
  where[threadIdx.x] = (uintptr_t)&local[31];
  out[threadIdx.x] = s;
}

/* Maps inaccessible pages into every gap of the address space above
 * `limit`, the highest first, as the kernel places new mappings, so that
 * the next mapping goes below `limit`. */
static void fill_gaps_above(const char *limit, size_t page) {
  for (;;) {
    void *f = mmap(nullptr, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                   0);
    if (f == MAP_FAILED)
      return;
    if (static_cast<char *>(f) < limit) {
      munmap(f, page);
      return;
    }
  }
}

int main() {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const size_t hole = 8u << 20;
  int *in = nullptr, *out = nullptr;
  uintptr_t *where = nullptr;
  CHECK(cudaMallocManaged(&in, kMax * sizeof *in) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, kMax * sizeof *out) == cudaSuccess);
  CHECK(cudaMallocManaged(&where, kMax * sizeof *where) == cudaSuccess);
  for (int i = 0; i < kMax; ++i)
    in[i] = i % 64;
  /* The stacks of the first kFirst threads exist before the rounds. */
  sum_locals<<<1, kFirst>>>(in, out, where);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  int near = 0;
  for (int r = 1; r <= kRounds && !check_failures; ++r) {
    /* A hole with a registered page above it: the next mapping (the new
     * stack) goes to the top of the hole. */
    char *p = static_cast<char *>(mmap(nullptr, hole, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED)
      break;
    char *top = p + hole - page;
    CHECK(munmap(p, hole - page) == 0);
    fill_gaps_above(top, page);
    CHECK(cudaHostRegister(top, page, cudaHostRegisterDefault) == cudaSuccess);
    int threads = kFirst + r;
    sum_locals<<<1, threads>>>(in, out, where);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int t = 0; t < threads; ++t)
      CHECK(out[t] == 32 * (t % 64) + 31 * 32 / 2);
    for (int t = 0; t < threads; ++t) {
      uintptr_t gap = (uintptr_t)top - where[t];
      if (gap <= 256)
        near++;
    }
    CHECK(cudaHostUnregister(top) == cudaSuccess);
    CHECK(munmap(top, page) == 0);
  }
  if (!near)
    std::printf("no round put a local variable within 256 bytes of the "
                "page: the layout this test relies on has changed\n");
  CHECK(near > 0);
  return finish();
}
