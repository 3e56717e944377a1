// busy_blocks.cu: blocks that compute for long, with blocks left that have
// not started, are not blocks that wait for other blocks: their launch
// keeps the workers CUEMU_WORKERS asks for (no more OS threads), and a loop
// of volatile accesses that change the value (a counter in global memory)
// does not yield. Three kernels, three blocks each on two workers, each
// block busy for a fraction of a second: threads that run one after the
// other, threads that take turns at __syncthreads, and threads that count
// in a volatile global counter. A host thread counts the worker threads
// (named cuemu-worker) while they run. Run by tests/progress_watchdog.sh
// with CUEMU_WORKERS=2 and a short CUEMU_SPIN_TIMEOUT.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <thread>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

static const int kBlocks = 3;
static const int kThreads = 32;

// Each thread computes alone, to the end (threads run one after another).
__global__ void alone(float *out, int steps) {
  float x = threadIdx.x;
  for (int i = 0; i < steps; ++i)
    x = x * 0.999999f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// The threads take turns at a barrier after each step.
__global__ void in_turns(float *out, int steps) {
  __shared__ float row[kThreads];
  float x = threadIdx.x;
  for (int s = 0; s < 64; ++s) {
    for (int i = 0; i < steps / 64; ++i)
      x = x * 0.999999f + 0.5f;
    row[threadIdx.x] = x;
    __syncthreads();
    x += row[(threadIdx.x + 1) % kThreads] * 1e-9f;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Each thread counts in a volatile global counter of its own.
__global__ void counting(volatile unsigned *counters, int steps) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < steps; ++s)
    counters[i] = counters[i] + 1;
}

// The most threads named cuemu-worker seen at once while `running`.
static std::atomic<int> most_workers(0);
static std::atomic<bool> running(true);

static int count_workers() {
  DIR *tasks = opendir("/proc/self/task");
  if (!tasks)
    return 0;
  int count = 0;
  while (struct dirent *e = readdir(tasks)) {
    if (e->d_name[0] == '.')
      continue;
    char path[300], name[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    if (FILE *f = fopen(path, "r")) {
      if (fgets(name, sizeof name, f) && strncmp(name, "cuemu-worker", 12) == 0)
        ++count;
      fclose(f);
    }
  }
  closedir(tasks);
  return count;
}

static void watch_workers() {
  while (running.load()) {
    int n = count_workers();
    if (n > most_workers.load())
      most_workers.store(n);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Whether the launch of `name` ran on more worker threads than `workers`
// (0: any number) asks for.
static bool too_many(const char *name, int workers) {
  int seen = most_workers.exchange(0);
  // The launching thread is a worker too: the others are named.
  if (workers > 0 && seen > workers - 1) {
    printf("FAIL: kernel %s ran on %d worker threads at once with "
           "CUEMU_WORKERS=%d\n",
           name, seen + 1, workers);
    return true;
  }
  return false;
}

// Runs the three kernels; 0 when they kept their workers and counted right.
static int run(int workers) {
  float *out;
  unsigned *counters;
  CHECK(cudaMallocManaged(&out, kBlocks * kThreads * sizeof(float)));
  CHECK(cudaMallocManaged(&counters, kBlocks * kThreads * sizeof(unsigned)));
  CHECK(cudaMemset(counters, 0, kBlocks * kThreads * sizeof(unsigned)));
  const int steps = 12000000, counts = 1000000;
  most_workers.store(0);
  alone<<<kBlocks, kThreads>>>(out, steps);
  CHECK(cudaDeviceSynchronize());
  if (too_many("alone", workers))
    return 1;
  in_turns<<<kBlocks, kThreads>>>(out, steps);
  CHECK(cudaDeviceSynchronize());
  if (too_many("in_turns", workers))
    return 1;
  counting<<<kBlocks, kThreads>>>(counters, counts);
  CHECK(cudaDeviceSynchronize());
  if (too_many("counting", workers))
    return 1;
  for (int i = 0; i < kBlocks * kThreads; ++i)
    if (counters[i] != (unsigned)counts) {
      printf("FAIL: counter %d is %u, expected %d\n", i, counters[i], counts);
      return 1;
    }
  return 0;
}

int main() {
  const char *asked = getenv("CUEMU_WORKERS");
  std::thread watcher(watch_workers);
  int failed = run(asked ? atoi(asked) : 0);
  running.store(false);
  watcher.join();
  if (failed)
    return 1;
  printf("PASS\n");
  return 0;
}
