// printf_warp_guarded.cu: lanes of one warp that print different numbers
// of lines between two collectives. A GPU's warp runs each printf call for
// the lanes that reach it, in program order: a call that only lane 0 makes
// (`if (tid == 0) printf(...)`, a textbook's table header) comes before the
// next call that every lane makes, and a loop's later rounds, which only
// some lanes run, come before the line after the loop, a guarded call in a
// loop stays in its round, and so does a guarded call of a device function
// defined below the kernel (a higher line than the kernel's next call).
// cuemu ranked each lane's lines by their count, so lane 0's header took
// the place of the other lanes' values (a warp-primitives chapter printed
// "threadIdx.x:  1 2 ... 15  0" and lane 0's lane_id on the next row). The
// program sends its stdout to a temporary file and checks the order of the
// lines.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void guarded() {
  int tid = threadIdx.x;
  if (tid == 0) printf("head\n");
  printf("value t%d\n", tid);
  if (tid == 0) printf("tail\n");
}

__global__ void uneven_loop() {
  int tid = threadIdx.x;
  for (int i = 0; i <= tid % 3; ++i)
    printf("iter%d t%d\n", i, tid);
  printf("done t%d\n", tid);
}

__global__ void guarded_in_loop() {
  int tid = threadIdx.x;
  for (int i = 0; i < 2; ++i) {
    printf("round%d t%d\n", i, tid);
    if (tid == 0) printf("extra%d\n", i);
  }
}

__device__ void note_below(int tid);

__global__ void guarded_call_below() {
  int tid = threadIdx.x;
  printf("before t%d\n", tid);
  if (tid == 0) note_below(tid);
  printf("after t%d\n", tid);
}

__device__ void note_below(int tid) { printf("below t%d\n", tid); }

int main() {
  FILE *capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    return 1;
  }
  fflush(stdout);
  int saved = dup(fileno(stdout));
  dup2(fileno(capture), fileno(stdout));
  guarded<<<1, 16>>>();
  cudaDeviceSynchronize();
  uneven_loop<<<1, 16>>>();
  cudaDeviceSynchronize();
  guarded_in_loop<<<1, 8>>>();
  cudaDeviceSynchronize();
  guarded_call_below<<<1, 8>>>();
  cudaDeviceSynchronize();
  fflush(stdout);
  dup2(saved, fileno(stdout));
  close(saved);

  std::vector<std::string> got;
  char buf[256];
  rewind(capture);
  while (fgets(buf, sizeof buf, capture)) {
    buf[std::strcspn(buf, "\n")] = '\0';
    got.push_back(buf);
  }
  fclose(capture);

  std::vector<std::string> want = {"head"};
  for (int t = 0; t < 16; ++t)
    want.push_back("value t" + std::to_string(t));
  want.push_back("tail");
  for (int i = 0; i < 3; ++i)
    for (int t = 0; t < 16; ++t)
      if (i <= t % 3)
        want.push_back("iter" + std::to_string(i) + " t" + std::to_string(t));
  for (int t = 0; t < 16; ++t)
    want.push_back("done t" + std::to_string(t));
  for (int i = 0; i < 2; ++i) {
    for (int t = 0; t < 8; ++t)
      want.push_back("round" + std::to_string(i) + " t" + std::to_string(t));
    want.push_back("extra" + std::to_string(i));
  }
  for (int t = 0; t < 8; ++t)
    want.push_back("before t" + std::to_string(t));
  want.push_back("below t0");
  for (int t = 0; t < 8; ++t)
    want.push_back("after t" + std::to_string(t));

  if (got != want) {
    std::printf("out of order:\n");
    for (size_t i = 0; i < got.size(); ++i)
      std::printf("  %-12s %s\n", got[i].c_str(),
                  i < want.size() ? want[i].c_str() : "");
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
