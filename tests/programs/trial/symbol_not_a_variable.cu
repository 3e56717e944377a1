// The symbol calls of the runtime (cudaGetSymbolAddress, cudaGetSymbolSize,
// cudaMemcpyToSymbol, cudaMemcpyFromSymbol and their asynchronous forms)
// take a __device__ or __constant__ variable; anything else "cannot be
// found" and CUDA returns cudaErrorInvalidSymbol, leaving *devPtr and *size
// unchanged. A unit-test suite of the runtime API checks it with a host
// array on the stack (`const char missing[] = "..."`) and with NULL, which
// the C++ template binds to a temporary. cuemu took every writable address
// for a variable: the stack array, a heap block and a cudaMalloc'd pointer
// all answered cudaSuccess, and the copies wrote to them. The suite also
// passes a `void *` that holds cudaGetSymbolAddress's result: CUDA's C++
// template binds to the pointer variable (an identity conversion beats the
// C function's `const void *`), so the symbol is the pointer's own address,
// and the call fails; cuemu took the pointer's value and succeeded. A
// `const void *` reaches the C function, which takes its value.
#include <cstdio>
#include <cstdlib>
#include "../check.cuh"

__device__ int dev_value;
__constant__ float const_table[4];

__global__ void read_value(int *out) { *out = dev_value + (int)const_table[3]; }

// Every symbol call on an address that holds no variable.
static void expect_not_a_symbol(const int &not_symbol, const char *what) {
  void *address = (void *)&dev_value;  // must stay unchanged
  size_t size = 12345;
  int value = 7;
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  CHECK(cudaGetSymbolAddress(&address, not_symbol) == cudaErrorInvalidSymbol);
  CHECK(address == (void *)&dev_value);
  CHECK(cudaGetSymbolSize(&size, not_symbol) == cudaErrorInvalidSymbol);
  CHECK(size == 12345);
  CHECK(cudaMemcpyToSymbol(not_symbol, &value, sizeof value) == cudaErrorInvalidSymbol);
  CHECK(cudaMemcpyFromSymbol(&value, not_symbol, sizeof value) == cudaErrorInvalidSymbol);
  CHECK(value == 7);
  CHECK(cudaMemcpyToSymbolAsync(not_symbol, &value, sizeof value, 0, cudaMemcpyHostToDevice,
                                stream) == cudaErrorInvalidSymbol);
  CHECK(cudaMemcpyFromSymbolAsync(&value, not_symbol, sizeof value, 0, cudaMemcpyDeviceToHost,
                                  stream) == cudaErrorInvalidSymbol);
  // The error is the thread's last error, and it is not sticky.
  CHECK(cudaGetLastError() == cudaErrorInvalidSymbol);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  std::printf("%s: cudaErrorInvalidSymbol\n", what);
}

int main() {
  int on_stack[4] = {1, 2, 3, 4};
  expect_not_a_symbol(on_stack[0], "a host array on the stack");

  int *on_heap = static_cast<int *>(std::malloc(4 * sizeof(int)));
  expect_not_a_symbol(on_heap[0], "a heap block");
  std::free(on_heap);

  int *device_buffer = nullptr;
  CHECK(cudaMalloc(&device_buffer, 4 * sizeof(int)) == cudaSuccess);
  expect_not_a_symbol(*device_buffer, "cudaMalloc'd memory");  // binds, never reads

  // NULL binds the template's reference to a temporary, on the stack too.
  void *address = nullptr;
  CHECK(cudaGetSymbolAddress(&address, NULL) == cudaErrorInvalidSymbol);
  CHECK(address == nullptr);
  CHECK(cudaGetLastError() == cudaErrorInvalidSymbol);

  // A void * holding the variable's address is a variable of its own.
  void *by_address = nullptr;
  CHECK(cudaGetSymbolAddress(&by_address, dev_value) == cudaSuccess);
  int one = 1;
  CHECK(cudaMemcpyToSymbol(by_address, &one, sizeof one) == cudaErrorInvalidSymbol);
  CHECK(cudaMemcpyToSymbol((void *)&dev_value, &one, sizeof one) == cudaErrorInvalidSymbol);
  CHECK(cudaGetLastError() == cudaErrorInvalidSymbol);
  // A const void * is the C function's symbol: the variable's host address.
  const void *c_symbol = &dev_value;
  CHECK(cudaMemcpyToSymbol(c_symbol, &one, sizeof one) == cudaSuccess);
  int back = 0;
  CHECK(cudaMemcpyFromSymbol(&back, c_symbol, sizeof back) == cudaSuccess);
  CHECK(back == 1);

  // The variables themselves still work.
  int forty = 40;
  float table[4] = {0.f, 1.f, 2.f, 2.f};
  CHECK(cudaMemcpyToSymbol(dev_value, &forty, sizeof forty) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(const_table, table, sizeof table) == cudaSuccess);
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, const_table) == cudaSuccess && size == sizeof table);
  CHECK(cudaGetSymbolAddress(&address, dev_value) == cudaSuccess && address != nullptr);
  read_value<<<1, 1>>>(device_buffer);
  int got = 0;
  CHECK(cudaMemcpy(&got, device_buffer, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got == 42);
  CHECK(cudaMemcpy(&got, address, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got == 40);
  CHECK(cudaFree(device_buffer) == cudaSuccess);
  return finish();
}
