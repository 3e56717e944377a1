/*
 * device_assert_all.cu: assert() in kernel code, as the CUDA Programming
 * Guide describes it: every thread whose assertion fails prints
 * "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `EXPR`
 * failed." on stderr, and the launch ends in cudaErrorAssert. Two blocks
 * of 32 threads check an index against 60: threads 28..31 of block 1 fail
 * (the last four lanes of a warp, which all print on a GPU). The program
 * reads its own stderr back through a temporary file. Prints PASS when all
 * is well.
 */
#include <cassert>
#include <cstdio>
#include <cstring>
#include <string>

#include <unistd.h>

#include "check.cuh"

__global__ void scale_checked(float *v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  v[i] *= 2.0f;
}

int main() {
  const int n = 60;
  float *v;
  CHECK(cudaMalloc(&v, 64 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemset(v, 0, 64 * sizeof(float)) == cudaSuccess);

  /* Stderr goes to a temporary file during the launch. */
  std::fflush(stderr);
  FILE *log = std::tmpfile();
  const int saved = dup(2);
  CHECK(log != nullptr && saved >= 0);
  dup2(fileno(log), 2);
  scale_checked<<<2, 32>>>(v, n);
  const cudaError_t err = cudaDeviceSynchronize();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);

  std::string text;
  std::rewind(log);
  char buf[512];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, log)) > 0) text.append(buf, got);
  std::fclose(log);
  std::fputs(text.c_str(), stderr);

  CHECK(err == cudaErrorAssert);
  int messages = 0;
  for (size_t at = 0; (at = text.find("Assertion `i < n` failed.", at)) != std::string::npos; ++at)
    ++messages;
  CHECK(messages == 4);
  for (int t = 28; t < 32; ++t) {
    char want[64];
    std::snprintf(want, sizeof want, "block: [1,0,0], thread: [%d,0,0] Assertion", t);
    CHECK(text.find(want) != std::string::npos);
  }
  CHECK(text.find("device_assert_all.cu:22:") != std::string::npos);
  return finish();
}
