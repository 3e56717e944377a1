// overloaded_kernel_null_args.cu: a null pointer constant (`NULL`, `0`) for
// a pointer parameter of a kernel whose name is overloaded, or that has
// default arguments, launches the kernel that nvcc's overload resolution
// picks: the overload with the pointer where no other takes the integer
// as it is, the one with an integer parameter where that one takes it
// (`0L` for a long: an exact match wins over the null pointer
// conversion). A textbook's concurrency benchmark launches one of two
// kernels named alike with NULL for a structure's pointer; cuemu's pick
// saw NULL as a long and failed to compile ("invalid conversion from
// 'long int' to 'Data*'").
#include <cstddef>
#include <cstdio>

#include <cuda_runtime.h>

struct Data {
  int count;
};

// Two kernels of one name; only the second takes a Data *.
__global__ void add(int *out, int n) { out[0] = 100 + n; }
__global__ void add(int *out, int n, Data *data, int kid) {
  out[0] = data ? 200 + data->count : 300 + n + kid;
}

// An integer parameter and a pointer parameter at the same place.
__global__ void which(int *out, long value) { out[0] = 400 + (int)value; }
__global__ void which(int *out, Data *data) { out[0] = data ? 500 : 600; }

// Default arguments, one of them a pointer's.
__global__ void defaulted(int *out, Data *data = NULL, int extra = 0) {
  out[0] = (data ? 700 : 800) + extra;
}

static int failures;

static void expect(const char *what, int *device, int expected) {
  int got = -1;
  cudaError_t status = cudaMemcpy(&got, device, sizeof got, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess || got != expected) {
    printf("FAIL: %s: %d, expected %d (%s)\n", what, got, expected,
           cudaGetErrorString(status));
    failures++;
  }
}

int main() {
  int *out = NULL;
  Data *data = NULL;
  Data host = {7};
  if (cudaMalloc(&out, sizeof(int)) != cudaSuccess ||
      cudaMalloc(&data, sizeof(Data)) != cudaSuccess ||
      cudaMemcpy(data, &host, sizeof host, cudaMemcpyHostToDevice) != cudaSuccess) {
    printf("FAIL: allocation\n");
    return 1;
  }

  add<<<1, 1>>>(out, 5, NULL, 1);
  expect("add(out, 5, NULL, 1)", out, 306);
  add<<<1, 1>>>(out, 5, 0, 2);
  expect("add(out, 5, 0, 2)", out, 307);
  add<<<1, 1>>>(out, 5, data, 0);
  expect("add(out, 5, data, 0)", out, 207);
  add<<<1, 1>>>(out, 5);
  expect("add(out, 5)", out, 105);

  which<<<1, 1>>>(out, 0L);
  expect("which(out, 0L): the long overload", out, 400);
  which<<<1, 1>>>(out, data);
  expect("which(out, data)", out, 500);
  which<<<1, 1>>>(out, nullptr);
  expect("which(out, nullptr)", out, 600);

  defaulted<<<1, 1>>>(out, NULL);
  expect("defaulted(out, NULL)", out, 800);
  defaulted<<<1, 1>>>(out, 0, 3);
  expect("defaulted(out, 0, 3)", out, 803);
  defaulted<<<1, 1>>>(out, data);
  expect("defaulted(out, data)", out, 700);
  defaulted<<<1, 1>>>(out);
  expect("defaulted(out)", out, 800);

  cudaFree(out);
  cudaFree(data);
  if (failures == 0) printf("PASS\n");
  return failures != 0;
}
