// memory_nodes_queued.cu: a launch of a graph with memory allocation and
// free nodes is stream-ordered as any other graph launch: while an earlier
// kernel holds the stream, cudaGraphLaunch returns at once (the host is
// never held: a valve would raise the flag, and the test fails), and the
// relaunch rule of CUDA's graph memory is applied in issue order: a graph
// whose allocation no free has been issued for is refused
// (cudaErrorInvalidValue), a cudaFreeAsync queued on the held stream
// allows the relaunch, work issued after a launch may use its allocation
// before the allocation node has run, and an executable graph instantiated with
// cudaGraphInstantiateFlagAutoFreeOnLaunch relaunches freely. The
// allocations keep the addresses they were given when their nodes were
// made, and the results show every launch ran in stream order. A launch
// that fails before its allocation node runs leaves the graph launchable;
// cudaGraphClone refuses graphs with memory nodes, as CUDA's does.
// CUEMU_OPTIONS: -std=c++17
#include <cuda_runtime.h>

#include <cstdlib>
#include <vector>

#include "../check.cuh"
#include "graphs16_kernels.cuh"

static const int N = 2048;

// A graph: alloc tmp; tmp = in * k + i; out = tmp * 1 + i (so out = in*k +
// 2i); and, with `free_it`, a free node of tmp.
struct AllocGraph {
  cudaGraph_t graph;
  float *tmp = nullptr;
  float *in, *out;
  int n = N;
  float k, one = 1.0f;
  cudaGraphNode_t alloc_node, first, second;
  AllocGraph(float *in_, float *out_, float k_, bool free_it)
      : in(in_), out(out_), k(k_) {
    RT(cudaGraphCreate(&graph, 0));
    cudaMemAllocNodeParams alloc = {};
    alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    alloc.poolProps.location.id = 0;
    alloc.bytesize = N * sizeof(float);
    RT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc));
    tmp = static_cast<float *>(alloc.dptr);
    void *a1[] = {&in, &tmp, &n, &k};
    void *a2[] = {&tmp, &out, &n, &one};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void *>(&scale_index<float>);
    kp.gridDim = dim3(N / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = a1;
    RT(cudaGraphAddKernelNode(&first, graph, &alloc_node, 1, &kp));
    kp.kernelParams = a2;
    RT(cudaGraphAddKernelNode(&second, graph, &first, 1, &kp));
    if (free_it) {
      cudaGraphNode_t f;
      RT(cudaGraphAddMemFreeNode(&f, graph, &second, 1, tmp));
    }
  }
  ~AllocGraph() { cudaGraphDestroy(graph); }
};

// Counts the elements of out that differ from in * k + 2i.
static int wrong(const float *dout, const std::vector<float> &in, float k) {
  std::vector<float> host(N);
  cudaMemcpy(host.data(), dout, N * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += host[i] != in[i] * k + 2.0f * (float)i;
  return bad;
}

int main() {
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *in, *out1, *out2, *out3;
  RT(cudaMalloc(&in, N * sizeof(float)));
  RT(cudaMalloc(&out1, N * sizeof(float)));
  RT(cudaMalloc(&out2, N * sizeof(float)));
  RT(cudaMalloc(&out3, N * sizeof(float)));
  std::vector<float> hin(N), h2(N);
  for (int i = 0; i < N; ++i) {
    hin[i] = (float)(i % 97) - 40.0f;
    h2[i] = hin[i] * 3.0f + (float)i; // in after the stage below
  }
  RT(cudaMemcpy(in, hin.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  float *pinned;
  RT(cudaMallocHost(&pinned, N * sizeof(float)));

  // Graph A keeps its allocation (no free node); graph B frees its own;
  // graph C keeps its allocation and is freed on relaunch.
  AllocGraph a(in, out1, 2.0f, false), b(in, out2, 5.0f, true),
      c(in, out3, 7.0f, false);
  // CUDA does not clone graphs with memory allocation or free nodes.
  cudaGraph_t clone = nullptr;
  CHECK(cudaGraphClone(&clone, a.graph) == cudaErrorNotSupported);
  CHECK(cudaGetLastError() == cudaErrorNotSupported);
  CHECK(cudaGraphClone(&clone, b.graph) == cudaErrorNotSupported);
  CHECK(cudaGetLastError() == cudaErrorNotSupported);
  cudaGraphExec_t ea, eb, ec;
  RT(cudaGraphInstantiate(&ea, a.graph, 0));
  RT(cudaGraphInstantiate(&eb, b.graph, 0));
  RT(cudaGraphInstantiateWithFlags(&ec, c.graph,
                                   cudaGraphInstantiateFlagAutoFreeOnLaunch));
  RT(cudaDeviceSynchronize());

  Hold hold(5.0);
  hold_until<<<1, 32, 0, s>>>(hold.dflag);
  RT(cudaGraphLaunch(ea, s));
  // In place: in = in * 3 + i, after graph A read it and before B does.
  scale_index<float><<<N / 256, 256, 0, s>>>(in, in, N, 3.0f);
  RT(cudaGraphLaunch(eb, s));
  RT(cudaGraphLaunch(eb, s)); // B frees what it allocates: relaunch is fine
  // A's allocation is allocated (in issue order) and nobody freed it.
  CHECK(cudaGraphLaunch(ea, s) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  // Freed in the stream's order, still held: A may be launched again.
  RT(cudaFreeAsync(a.tmp, s));
  RT(cudaGraphLaunch(ea, s)); // reads the changed input
  // Work ordered after the launch may use its allocation (its node has not
  // run yet, the stream is held): a memset of its second half and a copy
  // of all of it to pinned memory are queued, the host not held.
  RT(cudaMemsetAsync(a.tmp + N / 2, 0, N / 2 * sizeof(float), s));
  RT(cudaMemcpyAsync(pinned, a.tmp, N * sizeof(float), cudaMemcpyDeviceToHost,
                     s));
  RT(cudaGraphLaunch(ec, s));
  RT(cudaGraphLaunch(ec, s)); // freed on launch
  if (!streams_run_inline()) {
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
    cudaGetLastError();
  }
  CHECK(hold.release()); // nothing above waited for the held stream
  RT(cudaStreamSynchronize(s));

  CHECK(wrong(out1, h2, 2.0f) == 0); // A's second launch, after the stage
  CHECK(wrong(out2, h2, 5.0f) == 0);
  CHECK(wrong(out3, h2, 7.0f) == 0);
  int copied_bad = 0; // tmp = in * 2 + i, its second half set to 0
  for (int i = 0; i < N; ++i)
    copied_bad += pinned[i] != (i < N / 2 ? h2[i] * 2.0f + (float)i : 0.0f);
  CHECK(copied_bad == 0);

  // The allocations kept their addresses, and the nodes say so.
  cudaMemAllocNodeParams back = {};
  RT(cudaGraphMemAllocNodeGetParams(a.alloc_node, &back));
  CHECK(back.dptr == a.tmp);
  // A's and C's allocations of the last launches are live (a copy works),
  // B's is freed.
  float probe = 0.0f;
  RT(cudaMemcpy(&probe, a.tmp, sizeof probe, cudaMemcpyDeviceToHost));
  CHECK(probe == h2[0] * 2.0f);
  RT(cudaMemcpy(&probe, c.tmp + 1, sizeof probe, cudaMemcpyDeviceToHost));
  CHECK(probe == h2[1] * 7.0f + 1.0f);
  CHECK(cudaMemcpy(&probe, b.tmp, sizeof probe, cudaMemcpyDeviceToHost) !=
        cudaSuccess);
  cudaGetLastError();
  unsigned long long used = 0;
  RT(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(used >= 3 * N * sizeof(float)); // three graphs hold theirs

  // cudaFree frees a graph allocation outside its graph (after the
  // device's work): A and C may be launched again after it.
  RT(cudaFree(a.tmp));
  RT(cudaGraphLaunch(ea, s));
  RT(cudaStreamSynchronize(s));
  CHECK(wrong(out1, h2, 2.0f) == 0);
  CHECK(cudaFree(b.tmp) != cudaSuccess); // B's own free node freed it
  cudaGetLastError();
  RT(cudaFree(a.tmp));
  RT(cudaFree(c.tmp));

  // A launch that fails before its allocation node has run (on an order
  // cuemu refuses, CUEMU_GRAPH_ORDER=sideways, cudaGraphLaunch itself
  // fails) allocated nothing: the graph may be launched again, and then
  // its allocation is.
  {
    AllocGraph d(in, out1, 2.0f, false);
    cudaGraphExec_t ed;
    RT(cudaGraphInstantiate(&ed, d.graph, 0));
    RT(cudaMemset(out1, 0, N * sizeof(float)));
    setenv("CUEMU_GRAPH_ORDER", "sideways", 1);
    cudaError_t launched = cudaGraphLaunch(ed, s);
    cudaError_t synced = cudaStreamSynchronize(s);
    unsetenv("CUEMU_GRAPH_ORDER");
    CHECK((launched == cudaSuccess ? synced : launched) != cudaSuccess);
    cudaGetLastError();
    RT(cudaGraphLaunch(ed, s));
    RT(cudaStreamSynchronize(s));
    CHECK(wrong(out1, h2, 2.0f) == 0);
    RT(cudaFree(d.tmp));
    RT(cudaGraphExecDestroy(ed));
  }

  // With nothing allocated and the executable graphs gone, a trim gives
  // the reserved graph memory back.
  RT(cudaGraphExecDestroy(ea));
  RT(cudaGraphExecDestroy(eb));
  RT(cudaGraphExecDestroy(ec));
  RT(cudaDeviceGraphMemTrim(0));
  unsigned long long reserved = 1;
  RT(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent,
                                    &reserved));
  CHECK(reserved == 0);
  RT(cudaFree(in));
  RT(cudaFree(out1));
  RT(cudaFree(out2));
  RT(cudaFree(out3));
  RT(cudaFreeHost(pinned));
  RT(cudaStreamDestroy(s));
  RT(cudaGetLastError());
  return finish();
}
