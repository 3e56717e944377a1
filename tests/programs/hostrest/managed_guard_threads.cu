/*
 * managed_guard_threads.cu: on a device without concurrent managed access
 * (CUEMU_DEVICE's cma=0, set before the first CUDA call; a GPU ignores it
 * and the program then checks what its device has), no host thread may
 * touch managed memory while a kernel may run: not only the thread that
 * launched it but every other one too, and __managed__ variables as well
 * as cudaMallocManaged's memory. A GPU's host gets a segmentation fault;
 * so does cuemu's (cuemu once checked the launching thread alone, and
 * cudaMallocManaged's memory alone). Each touch that must fault is made
 * in a child process (fork), whose end the parent checks. What stays
 * allowed: the program's other variables beside a __managed__ one, and,
 * after the host synchronises, every thread's touch, also that of a
 * thread that lost access while the kernel ran. Prints PASS when all is
 * well.
 */
#include <cuda_runtime.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"
#include "../managed_guard.cuh"

__managed__ int counter;
/* Host variables, likely on counter's page. */
int before_counter = 1;
int after_counter = 2;

/* Runs until the host sets *go (mapped pinned memory), then adds one. */
__global__ void wait_then_add(volatile int *go, int *p) {
  while (*go == 0) {
  }
  atomicAdd(p, 1);
}

static int *go;
static int *managed;

/* Whether the child ended with a segmentation fault. */
static int segfaulted(pid_t child) {
  int status = 0;
  return waitpid(child, &status, 0) == child && WIFSIGNALED(status) &&
         WTERMSIG(status) == SIGSEGV;
}

static int exited_well(pid_t child) {
  int status = 0;
  return waitpid(child, &status, 0) == child && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

static volatile int stage;

/* Another host thread: touches cudaMallocManaged's memory (what 1) or the
 * __managed__ variable (what 2) when the main thread says so (stage 1),
 * and says it is done (stage 2). */
static void *toucher(void *what) {
  while (stage == 0) {
  }
  if (what == (void *)1)
    managed[1] = 5;
  else
    counter = 5;
  stage = 2;
  return nullptr;
}

/* In a child: starts a thread, launches a kernel that waits for the host,
 * lets the thread touch, then releases the kernel; `sync_first`: after
 * synchronising (then the touch is allowed and the child exits 0). */
static pid_t run_child(void *what, int sync_first) {
  fflush(stdout);
  pid_t child = fork();
  if (child != 0)
    return child;
  pthread_t thread;
  stage = 0;
  if (pthread_create(&thread, nullptr, toucher, what) != 0)
    _exit(2);
  *go = 0;
  wait_then_add<<<1, 1>>>(go, managed);
  if (sync_first) {
    *go = 1;
    if (cudaDeviceSynchronize() != cudaSuccess)
      _exit(3);
  }
  stage = 1;
  for (int i = 0; i < 2000 && stage != 2; ++i)
    usleep(1000);
  *go = 1;
  cudaDeviceSynchronize();
  pthread_join(thread, nullptr);
  _exit(stage == 2 ? 0 : 4);
}

int main() {
  setenv("CUEMU_DEVICE", "cma=0", 1);
  const bool guarded = managed_guard_available();
  int cma = -1;
  CHECK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0) ==
        cudaSuccess);
  CHECK(cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  CHECK(cudaMallocManaged(&managed, 64) == cudaSuccess);
  managed[0] = 0;
  counter = 0;

  // Under CUEMU_STREAMS=sync a kernel that waits for the host would not
  // let its launch return: the children need asynchronous streams.
  const char *streams = getenv("CUEMU_STREAMS");
  int synchronous = streams && streams[0] == 's';
  // The touches of another thread, after a synchronisation: allowed.
  if (!synchronous) {
    CHECK(exited_well(run_child((void *)1, 1)));
    CHECK(exited_well(run_child((void *)2, 1)));
  }
  int other_faulted = 0, variable_faulted = 0, own_variable_faulted = 0;
  if (cma == 0 && guarded && !synchronous) {
    // Another thread's touches while the kernel may run: faults.
    other_faulted = segfaulted(run_child((void *)1, 0));
    CHECK(other_faulted);
    variable_faulted = segfaulted(run_child((void *)2, 0));
    CHECK(variable_faulted);
    // The launching thread's touch of the __managed__ variable faults;
    // its touches of the variables beside it do not.
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      *go = 0;
      wait_then_add<<<1, 1>>>(go, &counter);
      before_counter += 10;
      after_counter += 10;
      if (before_counter != 11 || after_counter != 12)
        _exit(5);
      counter = 7; // a fault
      _exit(0);
    }
    own_variable_faulted = segfaulted(child);
    CHECK(own_variable_faulted);
  }
  // In this process, after synchronising: everything is the host's.
  *go = 1;
  wait_then_add<<<1, 1>>>(go, &counter);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(counter == 1);
  counter = 3;
  managed[2] = 4;
  std::printf("cma %d: faults of another thread's touch %d, of a "
              "__managed__ variable's %d (another thread) and %d (the "
              "launching thread)\n",
              cma, other_faulted, variable_faulted, own_variable_faulted);
  CHECK(cudaFree(managed) == cudaSuccess);
  CHECK(cudaFreeHost(go) == cudaSuccess);
  return finish();
}
