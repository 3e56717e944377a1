// fault_reports.cuh: kernel faults whose report must name the kernel, the
// block, the thread and the source line: an illegal address in a
// __device__ function of a header (this one), a call through a null
// function pointer (cuemu once said "an unknown place": the faulting
// instruction is in no code, and the caller's line is the return address
// on the stack), __trap() and an assert in a function template, and wild
// pointers whose address is not a canonical x86-64 one (text bytes read as
// a pointer): the processor's fault names no address there, and cuemu said
// "at address (nil)"; the report now names the address the instruction
// used, as compute-sanitizer does, for a store and for a float4 load. A store
// through a null pointer named its address "(nil)" too (the C library's %p
// for zero), where every other fault names a hexadecimal address: it is now
// "0x0", as in compute-sanitizer's reports. Each case
// runs in a child process, whose report the parent reads. Included by
// fault_reports_gxx.cu and fault_reports_clang.cu.
#include <cuda_runtime.h>

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

static const int poke_line = __LINE__ + 2;
__device__ __noinline__ void poke(int *p, int i) {
  p[i] = 42;
}

static const int assert_line = __LINE__ + 2;
template <typename T> __device__ void check_positive(T v) {
  assert(v > 0);
}

typedef int (*unary)(int);
__device__ unary unset_functions[2]; // null

__global__ void illegal_in_header(int *p) {
  if (threadIdx.x == 2 && blockIdx.x == 1)
    poke(p, threadIdx.x);
}

static const int call_line = __LINE__ + 3;
__global__ void call_null(int *out, int x) {
  if (threadIdx.x == 3 && blockIdx.x == 1)
    x = unset_functions[0](x);
  out[threadIdx.x] = x;
}

static const int trap_line = __LINE__ + 3;
__global__ void trap_one() {
  if (threadIdx.x == 4 && blockIdx.x == 1)
    __trap();
}

// The load and its use on one line: g++ -O2 gives the load the line of
// its use.
static const int vector_line = __LINE__ + 3;
__global__ void wild_vector_read(const float4 *in, float *out) {
  if (threadIdx.x == 1 && blockIdx.x == 1) {
    float4 v = in[3]; out[0] = v.x * v.y + v.z * v.w;
  }
}

static const int null_line = __LINE__ + 3;
__global__ void store_through(int *p) {
  if (threadIdx.x == 0 && blockIdx.x == 1)
    *p = 1;
}

__global__ void assert_in_template(int base) {
  check_positive(base - (int)threadIdx.x - 8 * (int)blockIdx.x);
}

static void child(int which) {
  unsetenv("CUEMU_QUIET"); // cuemu prints the launch's error
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  if (which == 0)
    illegal_in_header<<<2, 8>>>((int *)0x10);
  if (which == 1)
    call_null<<<2, 8>>>(p, 1);
  if (which == 2)
    trap_one<<<2, 8>>>();
  if (which == 3)
    assert_in_template<<<2, 8>>>(13); // thread (5,0,0) of block (1,0,0)
  if (which == 4) // text bytes ("d, hello") taken for a pointer
    illegal_in_header<<<2, 8>>>((int *)0x6f6c6c6568202c64ull);
  if (which == 5)
    wild_vector_read<<<2, 8>>>((const float4 *)0x7e57000000000000ull,
                               (float *)p);
  if (which == 6)
    store_through<<<2, 8>>>(nullptr);
  cudaError_t e = cudaDeviceSynchronize();
  std::fprintf(stderr, "status: %s\n", cudaGetErrorName(e));
}

static std::string run_child(int which) {
  std::string report;
  int fds[2];
  if (pipe(fds) != 0)
    return report;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(20);
    child(which);
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

static bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

static std::string line_of(int line) {
  return "fault_reports.cuh:" + std::to_string(line);
}

int main() {
  std::string r = run_child(0);
  CHECK(has(r, "kernel illegal_in_header: invalid memory access"));
  CHECK(has(r, "thread (2,0,0) of block (1,0,0)"));
  CHECK(has(r, line_of(poke_line)));
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  std::string all = r;

  r = run_child(1);
  CHECK(has(r, "kernel call_null: invalid memory access"));
  CHECK(has(r, "thread (3,0,0) of block (1,0,0)"));
  CHECK(has(r, line_of(call_line)));
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  all += r;

  r = run_child(2);
  CHECK(has(r, "kernel trap_one: __trap()"));
  CHECK(has(r, "thread (4,0,0) of block (1,0,0)"));
  CHECK(has(r, line_of(trap_line)));
  CHECK(has(r, "status: cudaErrorIllegalInstruction"));
  all += r;

  r = run_child(3);
  CHECK(has(r, "kernel assert_in_template: "));
  CHECK(has(r, "block (1,0,0), thread (5,0,0): assertion `v > 0' failed"));
  CHECK(has(r, line_of(assert_line)));
  CHECK(has(r, "status: cudaErrorAssert"));
  all += r;
  r = run_child(4);
  CHECK(has(r, "kernel illegal_in_header: invalid memory access (a "
               "non-canonical address"));
  CHECK(has(r, "at address 0x6f6c6c6568202c6c in thread (2,0,0) of block "
               "(1,0,0)"));
  CHECK(has(r, line_of(poke_line)));
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  all += r;

  r = run_child(5);
  CHECK(has(r, "kernel wild_vector_read: invalid memory access (a "
               "non-canonical address"));
  CHECK(has(r, "at address 0x7e5700000000003"));
  CHECK(has(r, "in thread (1,0,0) of block (1,0,0)"));
  CHECK(has(r, line_of(vector_line)));
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  all += r;

  r = run_child(6);
  CHECK(has(r, "kernel store_through: invalid memory access at address 0x0 "
               "in thread (0,0,0) of block (1,0,0)"));
  CHECK(!has(r, "(nil)"));
  CHECK(has(r, line_of(null_line)));
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  all += r;
  if (check_failures)
    std::fprintf(stderr, "the children's reports:\n%s\n", all.c_str());
  return finish();
}
