// shadow_main.cu: host code's own objects (shadows) of __device__ and
// __constant__ variables, as nvcc has them (tests/programs_shadow.sh).
// Host code that names a device variable reads and writes its host object,
// which holds the initial value; the symbol calls reach the device's
// object; the host object is no device memory (cudaMemset and cudaMemcpy
// of its address fail); a __managed__ variable is one object of both.
// NVCC_OPTIONS: -rdc=true -DSHADOW_RDC
#include "shadow.cuh"

__device__ int counter = 7;
__constant__ float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};
static __device__ int hidden_count = 3;
namespace {
__device__ int anon_value = 11;
}
__device__ const int const_value = 21;
struct Pair {
  int a;
  float b;
};
__constant__ Pair pairs[3] = {{1, 1.5f}, {2, 2.5f}, {3, 3.5f}};
template <class T> __device__ T tvalue = T(5);
__managed__ int managed_value = 9;
constexpr __device__ int constexpr_value = 31;

__global__ void bump(int *out) {
  counter += 100;
  hidden_count += 100;
  anon_value += 100;
  tvalue<int> += 100;
  managed_value += 100;
  out[0] = counter;
  out[1] = (int)coeffs[1];
  out[2] = pairs[2].a;
  out[3] = const_value;
#ifdef SHADOW_RDC
  linked_count += 1000;
#endif
}

template <class T> static int from_symbol(const T &symbol, int expected) {
  int value = -1;
  return cudaMemcpyFromSymbol(&value, symbol, sizeof value) == cudaSuccess &&
         value == expected;
}

int main() {
  int *out = nullptr;
  if (cudaMalloc(&out, 4 * sizeof(int)) != cudaSuccess)
    return 1;
  bump<<<1, 1>>>(out);
  SHADOW_CHECK("the first launch", cudaDeviceSynchronize() == cudaSuccess);
  int host_out[4];
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  SHADOW_CHECK("the kernel's reads", host_out[0] == 107 && host_out[1] == 2 &&
                                         host_out[2] == 3 &&
                                         host_out[3] == 21);

  // Host reads: the host objects' initial values, whatever kernels wrote.
  SHADOW_CHECK("counter's host object", counter == 7);
  SHADOW_CHECK("hidden_count's host object", hidden_count == 3);
  SHADOW_CHECK("anon_value's host object", anon_value == 11);
  SHADOW_CHECK("tvalue<int>'s host object", tvalue<int> == 5);
  SHADOW_CHECK("const_value's host object", const_value == 21);
  SHADOW_CHECK("coeffs's host object", coeffs[3] == 4.0f);
  SHADOW_CHECK("pairs's host object", pairs[1].a == 2 && pairs[2].b == 3.5f);

  // The symbol calls reach the device's objects.
  SHADOW_CHECK("cudaMemcpyFromSymbol(counter)", from_symbol(counter, 107));
  SHADOW_CHECK("cudaMemcpyFromSymbol(hidden_count)",
               from_symbol(hidden_count, 103));
  SHADOW_CHECK("cudaMemcpyFromSymbol(anon_value)", from_symbol(anon_value, 111));
  SHADOW_CHECK("cudaMemcpyFromSymbol(tvalue<int>)",
               from_symbol(tvalue<int>, 105));
  SHADOW_CHECK("cudaMemcpyFromSymbol(const_value)", from_symbol(const_value, 21));

  // A host write changes the host object only.
  counter = 50;
  SHADOW_CHECK("counter's host write", counter == 50);
  bump<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  SHADOW_CHECK("a host write is not the kernel's", from_symbol(counter, 207));

  // cudaMemcpyToSymbol, its asynchronous form, and the symbol's address.
  int set = 1000;
  SHADOW_CHECK("cudaMemcpyToSymbol(counter)",
               cudaMemcpyToSymbol(counter, &set, sizeof set) == cudaSuccess);
  Pair replaced = {40, 4.5f};
  SHADOW_CHECK("cudaMemcpyToSymbolAsync(pairs)",
               cudaMemcpyToSymbolAsync(pairs, &replaced, sizeof replaced,
                                       2 * sizeof(Pair)) == cudaSuccess &&
                   cudaDeviceSynchronize() == cudaSuccess);
  bump<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  SHADOW_CHECK("the kernel reads what the symbol calls wrote",
               host_out[0] == 1100 && host_out[2] == 40);
  SHADOW_CHECK("counter's host object after the copies", counter == 50);
  void *address = nullptr;
  SHADOW_CHECK("cudaGetSymbolAddress(counter)",
               cudaGetSymbolAddress(&address, counter) == cudaSuccess &&
                   address != (void *)&counter);
  int through = 0;
  SHADOW_CHECK("a copy from the symbol's address",
               cudaMemcpy(&through, address, sizeof through,
                          cudaMemcpyDeviceToHost) == cudaSuccess &&
                   through == 1100);
  size_t size = 0;
  SHADOW_CHECK("cudaGetSymbolSize(pairs)",
               cudaGetSymbolSize(&size, pairs) == cudaSuccess &&
                   size == sizeof pairs);
  SHADOW_CHECK("cudaGetSymbolAddress(coeffs)",
               cudaGetSymbolAddress(&address, coeffs) == cudaSuccess &&
                   address != (void *)coeffs);

  // A graph's copies to and from a symbol, and an asynchronous copy from
  // one.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaGraphNode_t to_node, from_node;
  int graph_in = 77, graph_out = 0, async_out = 0;
  SHADOW_CHECK("a graph's symbol copies",
               cudaGraphCreate(&graph, 0) == cudaSuccess &&
                   cudaGraphAddMemcpyNodeToSymbol(
                       &to_node, graph, nullptr, 0, hidden_count, &graph_in,
                       sizeof graph_in, 0,
                       cudaMemcpyHostToDevice) == cudaSuccess &&
                   cudaGraphAddMemcpyNodeFromSymbol(
                       &from_node, graph, &to_node, 1, &graph_out,
                       hidden_count, sizeof graph_out, 0,
                       cudaMemcpyDeviceToHost) == cudaSuccess &&
                   cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess &&
                   cudaGraphLaunch(exec, 0) == cudaSuccess &&
                   cudaStreamSynchronize(0) == cudaSuccess &&
                   graph_out == 77);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  SHADOW_CHECK("hidden_count's host object after the graph",
               hidden_count == 3);
  SHADOW_CHECK("cudaMemcpyFromSymbolAsync(hidden_count)",
               cudaMemcpyFromSymbolAsync(&async_out, hidden_count,
                                         sizeof async_out) == cudaSuccess &&
                   cudaDeviceSynchronize() == cudaSuccess &&
                   async_out == 77);
  SHADOW_CHECK("constexpr_value", constexpr_value == 31 &&
                                      from_symbol(constexpr_value, 31));

  // The host object is host memory, which the device's memory calls do
  // not take.
  SHADOW_CHECK("cudaMemset of counter's host object",
               cudaMemset(&counter, 0, sizeof counter) ==
                   cudaErrorInvalidValue);
  cudaGetLastError();
  int copied = 5;
  SHADOW_CHECK("cudaMemcpy to counter's host object, host to device",
               cudaMemcpy(&counter, &copied, sizeof copied,
                          cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  cudaGetLastError();
  SHADOW_CHECK("the device's counter after the refused copies",
               from_symbol(counter, 1100));

  // A __managed__ variable is one object.
  SHADOW_CHECK("managed_value", managed_value == 309);
  managed_value = 1;
  bump<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  SHADOW_CHECK("managed_value after a host write", managed_value == 101);

#ifdef SHADOW_RDC
  // Both units' host code have one host object of linked_count, and both
  // reach its one device object.
  SHADOW_CHECK("linked_count's host object", linked_count == 1);
  SHADOW_CHECK("cudaMemcpyFromSymbol(linked_count)",
               from_symbol(linked_count, 4001));
  SHADOW_CHECK("shadow_other.cu's checks", shadow_other_checks(4001) == 0);
  int linked = 0;
  SHADOW_CHECK("cudaMemcpyToSymbol(linked_count)",
               cudaMemcpyToSymbol(linked_count, &linked, sizeof linked) ==
                   cudaSuccess);
  SHADOW_CHECK("shadow_other.cu's checks after the copy",
               shadow_other_checks(0) == 0);
#endif
  cudaFree(out);
  printf("PASS\n");
  return 0;
}
