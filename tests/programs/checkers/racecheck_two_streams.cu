// racecheck_two_streams.cu: racecheck's cells are updated without their
// locks while one OS thread alone runs race-checked blocks, and a second
// thread takes that right back first (membarrier(2); docs/checkers.md).
// Two streams and two workers launch a kernel with one known race (every
// block's thread 0 writes one word: WAW) and a race-free one side by side,
// both reading one shared input from every thread, 50 times, each in a
// child process (a report is sticky): every time the race is reported,
// once, at its line, and no report names the race-free kernel (a note
// that it waited for the worker pool, which a loaded machine gives, is no
// report). The same
// again with membarrier's registration refused (a seccomp filter, as in a
// container that forbids it), where every update takes the locks.
// CUEMU_OPTIONS: --check=race
#include <cuda_runtime.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include "../check.cuh"

static const int kBlocks = 16, kThreads = 64, kRounds = 50;

static const int race_line = __LINE__ + 6;
__global__ void racy(const int *input, int *own, int *shared_word) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = input[threadIdx.x] + input[(threadIdx.x + 7) % 64];
  own[i] = v;
  if (threadIdx.x == 0)
    *shared_word = (int)blockIdx.x;
  __syncthreads();
  int next = own[blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  own[i] += next;
}

__global__ void clean(const int *input, int *own) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  own[i] = input[threadIdx.x] * 2 + input[(threadIdx.x + 3) % 64];
  __syncthreads();
  int next = own[blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  own[i] += next;
}

// One round: both kernels at once on two streams; the report on stderr.
static void round_child() {
  unsetenv("CUEMU_QUIET");
  int *input, *own_a, *own_b, *word;
  cudaStream_t s1, s2;
  cudaMalloc(&input, 64 * sizeof(int));
  cudaMalloc(&own_a, kBlocks * kThreads * sizeof(int));
  cudaMalloc(&own_b, kBlocks * kThreads * sizeof(int));
  cudaMalloc(&word, sizeof(int));
  cudaMemset(input, 1, 64 * sizeof(int));
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  for (int k = 0; k < 4; ++k)
    clean<<<kBlocks, kThreads, 0, s2>>>(input, own_b);
  racy<<<kBlocks, kThreads, 0, s1>>>(input, own_a, word);
  for (int k = 0; k < 4; ++k)
    clean<<<kBlocks, kThreads, 0, s2>>>(input, own_b);
  cudaStreamSynchronize(s1);
  cudaStreamSynchronize(s2);
  std::fprintf(stderr, "done\n");
}

#ifdef __linux__
// Makes membarrier(2)'s registration for MEMBARRIER_CMD_PRIVATE_EXPEDITED
// fail with EPERM in this process (its query still answers, and says the
// command exists), as a container's seccomp profile may.
static bool refuse_membarrier() {
  const unsigned kRegister = 1u << 4; // MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED
  struct sock_filter code[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kRegister, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  struct sock_fprog prog = {(unsigned short)(sizeof code / sizeof code[0]), code};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return false;
  long commands = syscall(SYS_membarrier, 0, 0, 0); // MEMBARRIER_CMD_QUERY
  return commands > 0 && (commands & (1 << 3)) && // PRIVATE_EXPEDITED
         syscall(SYS_membarrier, kRegister, 0, 0) == -1 && errno == EPERM;
}
#endif

static std::string run_round(bool no_membarrier) {
  std::string report;
  int fds[2];
  if (pipe(fds) != 0)
    return report;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(30);
#ifdef __linux__
    if (no_membarrier && !refuse_membarrier()) {
      std::fprintf(stderr, "seccomp filter not installed\n");
      _exit(1);
    }
#endif
    round_child();
    _exit(0);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    report.append(buf, (size_t)n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return report;
}

static int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

int main() {
  setenv("CUEMU_WORKERS", "2", 1);
  const std::string line =
      "racecheck_two_streams.cu:" + std::to_string(race_line);
  for (int variant = 0; variant < 2; ++variant) {
    int bad = 0;
    for (int r = 0; r < kRounds; ++r) {
      std::string rep = run_round(variant == 1);
      bool ok = count(rep, "racecheck: race") == 1 &&
                count(rep, "kernel racy: racecheck: race (WAW") == 1 &&
                count(rep, line) == 2 &&
                count(rep, "kernel clean: racecheck") == 0 &&
                count(rep, "done\n") == 1;
      if (!ok && bad++ < 3)
        std::fprintf(stderr, "variant %d round %d:\n%s\n", variant, r,
                     rep.c_str());
    }
    CHECK(bad == 0);
  }
  return finish();
}
