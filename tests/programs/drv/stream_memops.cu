// stream_memops.cu: stream memory operations as a producer/consumer
// pipeline uses them, and in graphs.
//  - A producer thread fills a buffer with a kernel and raises a flag with
//    cuStreamWriteValue32; the consumer's stream waits on the flag
//    (cuStreamWaitValue32, GEQ) before its kernel reads the buffer: the
//    wait holds until the other thread's write, and the consumer sees the
//    whole buffer. The same with 64-bit values and a sequence of rounds.
//  - Every wait condition (GEQ as a cyclic comparison, EQ, AND, NOR) on
//    values that satisfy it; cuStreamBatchMemOp with writes, a barrier and
//    waits; the device attributes that announce them.
//  - A wait that nothing satisfies gives up after CUEMU_EXT_WAIT_SECONDS
//    with CUDA_ERROR_TIMEOUT; in a process with one thread, where nothing
//    can change the value, at once with CUDA_ERROR_NOT_SUPPORTED (the
//    error of the synchronisation that waits for it).
//  - Batch memory operation nodes: captured from a stream, and made with
//    cuGraphAddBatchMemOpNode and cuGraphAddNode, read back, changed with
//    SetParams and cuGraphExecBatchMemOpNodeSetParams, and run.
//  - CUDA's error codes for bad arguments.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

template <class T> __global__ void produce(T *data, int n, T round) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = (T)(i * 3) + round;
}

template <class T>
__global__ void consume(const T *data, T *sum, int n, T round) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] == (T)(i * 3) + round)
    atomicAdd(sum, (T)1);
}

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

// Rounds of a pipeline: the producer thread fills the buffer and raises
// `ready` to the round's number; the consumer waits for it, checks the
// buffer, and raises `ack` to the round's number, which the producer waits
// for before the next round.
static void pipeline32() {
  const int n = 1000, rounds = 3;
  int *data, *sum;
  unsigned *flags;
  RT(cudaMalloc(&data, n * sizeof(int)));
  RT(cudaMalloc(&sum, sizeof(int)));
  RT(cudaMalloc(&flags, 2 * sizeof(unsigned)));
  RT(cudaMemset(flags, 0, 2 * sizeof(unsigned)));
  CUdeviceptr ready = dptr(flags), ack = dptr(flags + 1);
  cudaStream_t consumer;
  RT(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
  std::thread producer([&] {
    cudaStream_t s;
    RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int r = 1; r <= rounds; ++r) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      produce<<<(n + 255) / 256, 256, 0, s>>>(data, n, r);
      CU(cuStreamWriteValue32(s, ready, r, CU_STREAM_WRITE_VALUE_DEFAULT));
      CU(cuStreamWaitValue32(s, ack, r, CU_STREAM_WAIT_VALUE_EQ));
    }
    RT(cudaStreamDestroy(s));
  });
  for (int r = 1; r <= rounds; ++r) {
    CU(cuStreamWaitValue32(consumer, ready, r, CU_STREAM_WAIT_VALUE_GEQ));
    RT(cudaMemsetAsync(sum, 0, sizeof(int), consumer));
    consume<<<(n + 255) / 256, 256, 0, consumer>>>(data, sum, n, r);
    int h = 0;
    RT(cudaMemcpyAsync(&h, sum, sizeof h, cudaMemcpyDeviceToHost, consumer));
    RT(cudaStreamSynchronize(consumer));
    CHECK(h == n);
    CU(cuStreamWriteValue32(consumer, ack, r,
                            CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
  }
  producer.join();
  RT(cudaStreamDestroy(consumer));
  RT(cudaFree(data));
  RT(cudaFree(sum));
  RT(cudaFree(flags));
}

// 64-bit values, in pinned host memory (as a CPU-side producer would use).
static void pipeline64() {
  const int n = 512;
  unsigned long long *data, *sum, *flag;
  RT(cudaMalloc(&data, n * sizeof *data));
  RT(cudaMalloc(&sum, sizeof *sum));
  RT(cudaHostAlloc(&flag, sizeof *flag, cudaHostAllocMapped));
  *flag = 0;
  RT(cudaMemset(sum, 0, sizeof *sum));
  const unsigned long long big = 0x100000000ull; // past 32 bits
  // The producer has a stream of its own: stream 0 is the device's, shared
  // by the host threads, so its kernel there would queue behind the wait.
  std::thread producer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    cudaStream_t s;
    RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    produce<<<2, 256, 0, s>>>(data, n, big);
    CU(cuStreamWriteValue64((CUstream)s, dptr(flag), big + 7, 0));
    RT(cudaStreamSynchronize(s));
    RT(cudaStreamDestroy(s));
  });
  CU(cuStreamWaitValue64(0, dptr(flag), big + 7, CU_STREAM_WAIT_VALUE_EQ));
  consume<<<2, 256>>>(data, sum, n, big);
  unsigned long long h = 0;
  RT(cudaMemcpy(&h, sum, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h == (unsigned long long)n);
  CHECK(*flag == big + 7);
  producer.join();
  RT(cudaFree(data));
  RT(cudaFree(sum));
  RT(cudaFreeHost(flag));
}

static void conditions_and_batches() {
  int v = 0;
  CU(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
                          0));
  CHECK(v == 1);
  CU(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR,
                          0));
  CHECK(v == 1);
  unsigned *w;
  RT(cudaMalloc(&w, 4 * sizeof(unsigned)));
  CUdeviceptr a = dptr(w), b = dptr(w + 2);
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CU(cuStreamWriteValue32(s, a, 0x10, 0));
  // GEQ is cyclic: 0x10 is "after" 0xfffffff0.
  CU(cuStreamWaitValue32(s, a, 0xfffffff0u, CU_STREAM_WAIT_VALUE_GEQ));
  CU(cuStreamWaitValue32(s, a, 0x10, CU_STREAM_WAIT_VALUE_GEQ));
  CU(cuStreamWaitValue32(s, a, 0x10, CU_STREAM_WAIT_VALUE_EQ));
  CU(cuStreamWaitValue32(s, a, 0x30, CU_STREAM_WAIT_VALUE_AND));
  // NOR: ~(0x10 | 0xffffffe0) = 0xf, not zero.
  CU(cuStreamWaitValue32(s, a, 0xffffffe0u, CU_STREAM_WAIT_VALUE_NOR));
  // A batch: two writes, a barrier, waits on what was just written.
  CUstreamBatchMemOpParams ops[4];
  std::memset(ops, 0, sizeof ops);
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = a;
  ops[0].writeValue.value = 41;
  ops[1].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
  ops[1].writeValue.address = b;
  ops[1].writeValue.value64 = 0x123456789abcull;
  ops[2].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  ops[2].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
  ops[3].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
  ops[3].waitValue.address = b;
  ops[3].waitValue.value64 = 0x123456789abcull;
  ops[3].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  CU(cuStreamBatchMemOp(s, 4, ops, 0));
  unsigned h[4];
  CU(cuStreamSynchronize(s));
  RT(cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 41);
  unsigned long long wide;
  std::memcpy(&wide, &h[2], sizeof wide);
  CHECK(wide == 0x123456789abcull);

  // Bad arguments.
  CHECK(cuStreamWriteValue32(s, a + 2, 1, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWriteValue64(s, a + 4, 1, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWaitValue32(s, a, 41, 0x4) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWriteValue32(s, a, 1, 0x2) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWaitValue32(s, a, 41, CU_STREAM_WAIT_VALUE_EQ |
                                          CU_STREAM_WAIT_VALUE_FLUSH) ==
        CUDA_ERROR_NOT_SUPPORTED);
  CHECK(cuStreamBatchMemOp(s, 4, ops, 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamBatchMemOp(s, 0, ops, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamBatchMemOp(s, 256, ops, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamBatchMemOp(s, 1, nullptr, 0) == CUDA_ERROR_INVALID_VALUE);
  CUstreamBatchMemOpParams bad;
  std::memset(&bad, 0, sizeof bad);
  bad.operation = (CUstreamBatchMemOpType)9;
  CHECK(cuStreamBatchMemOp(s, 1, &bad, 0) == CUDA_ERROR_INVALID_VALUE);
  bad.flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
  CHECK(cuStreamBatchMemOp(s, 1, &bad, 0) == CUDA_ERROR_NOT_SUPPORTED);
  // Managed memory and memory CUDA does not know are not taken.
  unsigned *managed;
  RT(cudaMallocManaged(&managed, sizeof(unsigned)));
  CHECK(cuStreamWriteValue32(s, dptr(managed), 1, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  unsigned *plain = (unsigned *)std::malloc(sizeof(unsigned));
  CHECK(cuStreamWriteValue32(s, dptr(plain), 1, 0) == CUDA_ERROR_INVALID_VALUE);
  std::free(plain);
  RT(cudaFree(managed));
  // A destroyed stream.
  CU(cuStreamDestroy(s));
  CHECK(cuStreamWriteValue32(s, a, 1, 0) == CUDA_ERROR_INVALID_HANDLE);
  // Driver calls leave the runtime's last error alone.
  CHECK(cudaGetLastError() == cudaSuccess);
  RT(cudaFree(w));
}

// Waits that nothing satisfies.
static void unsatisfied_waits() {
  unsigned *flag;
  RT(cudaMalloc(&flag, sizeof(unsigned)));
  RT(cudaMemset(flag, 0, sizeof(unsigned)));
  // Another thread lives (it could write), so the wait waits its time.
  setenv("CUEMU_EXT_WAIT_SECONDS", "1", 1);
  bool done = false;
  std::thread idle([&] {
    while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  // The wait is issued (streams run asynchronously); the synchronisation
  // that waits for it gets its error.
  auto t0 = std::chrono::steady_clock::now();
  CU(cuStreamWaitValue32(0, dptr(flag), 1, CU_STREAM_WAIT_VALUE_EQ));
  CHECK(cuStreamSynchronize(0) == CUDA_ERROR_TIMEOUT);
  double waited = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
  CHECK(waited >= 0.9);
  __atomic_store_n(&done, true, __ATOMIC_RELEASE);
  idle.join();
  // A child process has one thread, and the memory is its own: no wait.
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    auto c0 = std::chrono::steady_clock::now();
    CUresult r = cuStreamWaitValue32(0, dptr(flag), 1, CU_STREAM_WAIT_VALUE_EQ);
    if (r == CUDA_SUCCESS)
      r = cuStreamSynchronize(0);
    double took = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - c0)
                      .count();
    _exit(r == CUDA_ERROR_NOT_SUPPORTED && took < 0.5 ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  unsetenv("CUEMU_EXT_WAIT_SECONDS");
  RT(cudaFree(flag));
}

static void memop_nodes() {
  unsigned *w;
  RT(cudaMalloc(&w, 4 * sizeof(unsigned)));
  RT(cudaMemset(w, 0, 4 * sizeof(unsigned)));
  // Captured: a write into a capturing stream is a node, not a write.
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  CU(cuStreamWriteValue32(s, dptr(w), 5, 0));
  CU(cuStreamWaitValue32(s, dptr(w), 5, CU_STREAM_WAIT_VALUE_EQ));
  CUgraph captured;
  CU(cuStreamEndCapture(s, &captured));
  unsigned h[4];
  RT(cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 0);
  size_t count = 0;
  CU(cuGraphGetNodes(captured, nullptr, &count));
  CHECK(count == 2);
  CUgraphNode nodes[2];
  CU(cuGraphGetNodes(captured, nodes, &count));
  CUgraphNodeType type;
  CU(cuGraphNodeGetType(nodes[0], &type));
  CHECK(type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
  CUgraphExec exec;
  CU(cuGraphInstantiate(&exec, captured, 0));
  CU(cuGraphLaunch(exec, s));
  CU(cuStreamSynchronize(s));
  RT(cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 5);
  CU(cuGraphExecDestroy(exec));
  CU(cuGraphDestroy(captured));

  // Made by hand: a write node, then a node of cuGraphAddNode after it.
  CUgraph g;
  CU(cuGraphCreate(&g, 0));
  CUstreamBatchMemOpParams op;
  std::memset(&op, 0, sizeof op);
  op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  op.writeValue.address = dptr(w + 1);
  op.writeValue.value = 11;
  CUDA_BATCH_MEM_OP_NODE_PARAMS p;
  std::memset(&p, 0, sizeof p);
  p.count = 1;
  p.paramArray = &op;
  CUgraphNode write_node, wait_node;
  CU(cuGraphAddBatchMemOpNode(&write_node, g, nullptr, 0, &p));
  op.writeValue.value = 99; // the node keeps its own copy
  CUDA_BATCH_MEM_OP_NODE_PARAMS back;
  CU(cuGraphBatchMemOpNodeGetParams(write_node, &back));
  CHECK(back.count == 1 && back.paramArray &&
        back.paramArray[0].writeValue.value == 11 &&
        back.paramArray[0].operation == CU_STREAM_MEM_OP_WRITE_VALUE_32);
  CUstreamBatchMemOpParams wait_op;
  std::memset(&wait_op, 0, sizeof wait_op);
  wait_op.waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  wait_op.waitValue.address = dptr(w + 1);
  wait_op.waitValue.value = 11;
  wait_op.waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
  CUgraphNodeParams any;
  std::memset(&any, 0, sizeof any);
  any.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
  any.memOp.count = 1;
  any.memOp.paramArray = &wait_op;
  CU(cuGraphAddNode(&wait_node, g, &write_node, nullptr, 1, &any));
  CU(cuGraphInstantiate(&exec, g, 0));
  CU(cuGraphLaunch(exec, s));
  CU(cuStreamSynchronize(s));
  RT(cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[1] == 11);
  // The executable graph takes a new value; the graph keeps its own.
  op.writeValue.value = 12;
  p.paramArray = &op;
  CU(cuGraphExecBatchMemOpNodeSetParams(exec, write_node, &p));
  wait_op.waitValue.value = 12;
  CUDA_BATCH_MEM_OP_NODE_PARAMS wp;
  std::memset(&wp, 0, sizeof wp);
  wp.count = 1;
  wp.paramArray = &wait_op;
  CU(cuGraphExecBatchMemOpNodeSetParams(exec, wait_node, &wp));
  CU(cuGraphLaunch(exec, s));
  CU(cuStreamSynchronize(s));
  RT(cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[1] == 12);
  CU(cuGraphBatchMemOpNodeGetParams(write_node, &back));
  CHECK(back.paramArray[0].writeValue.value == 11);
  // The graph's node changed: a new instance writes 13.
  op.writeValue.value = 13;
  CU(cuGraphBatchMemOpNodeSetParams(write_node, &p));
  wait_op.waitValue.value = 13;
  CU(cuGraphBatchMemOpNodeSetParams(wait_node, &wp));
  CUgraphExec exec2;
  CU(cuGraphInstantiate(&exec2, g, 0));
  CU(cuGraphLaunch(exec2, s));
  CU(cuStreamSynchronize(s));
  RT(cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[1] == 13);
  // Bad parameters: no operations, a misaligned address, a node of
  // another type.
  p.count = 0;
  CHECK(cuGraphBatchMemOpNodeSetParams(write_node, &p) ==
        CUDA_ERROR_INVALID_VALUE);
  p.count = 1;
  op.writeValue.address = dptr(w) + 1;
  CHECK(cuGraphAddBatchMemOpNode(&write_node, g, nullptr, 0, &p) ==
        CUDA_ERROR_INVALID_VALUE);
  CUgraphNode empty;
  CU(cuGraphAddEmptyNode(&empty, g, nullptr, 0));
  CHECK(cuGraphBatchMemOpNodeGetParams(empty, &back) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGraphBatchMemOpNodeGetParams(write_node, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuGraphExecDestroy(exec));
  CU(cuGraphExecDestroy(exec2));
  CU(cuGraphDestroy(g));
  CU(cuStreamDestroy(s));
  RT(cudaFree(w));
}

int main() {
  CU(cuInit(0));
  RT(cudaFree(0));
  pipeline32();
  pipeline64();
  conditions_and_batches();
  memop_nodes();
  unsatisfied_waits();
  return finish();
}
