// printf_warp_order.cu: a warp prints as it runs, all its lanes at once:
// two printf calls in a row give every lane's first line, in lane order,
// before any lane's second line, as textbook "hello" programs show on a
// GPU (cuemu runs a warp's lanes one after another, and puts the lines of
// each warp's run in that order when the launch ends). A loop's rounds
// come the same way; lines before a __syncthreads() come before the lines
// after it, also in a one-warp block where one lane prints more lines
// than another. The program sends its stdout to a temporary file and checks,
// for each warp of each block, the order of its lines.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void two_lines() {
  printf("first b%d t%d\n", blockIdx.x, threadIdx.x);
  printf("second b%d t%d\n", blockIdx.x, threadIdx.x);
}

__global__ void rounds(int n) {
  for (int i = 0; i < n; ++i)
    printf("round%d b%d t%d\n", i, blockIdx.x, threadIdx.x);
  __syncthreads();
  printf("after b%d t%d\n", blockIdx.x, threadIdx.x);
}

// Lane 0 prints three lines, then the warp meets at __syncwarp() and the
// block at __syncthreads(); lane 1 prints one line after each.
__global__ void uneven() {
  if (threadIdx.x == 0)
    for (int i = 0; i < 3; ++i)
      printf("lane0 line%d\n", i);
  __syncwarp();
  if (threadIdx.x == 1)
    printf("lane1 after syncwarp\n");
  if (threadIdx.x == 0)
    printf("lane0 line3\n");
  __syncthreads();
  if (threadIdx.x == 1)
    printf("lane1 after syncthreads\n");
}

// The lines of block b and warp w, in the order printed.
static std::vector<std::string> lines_of(const std::vector<std::string> &all,
                                         int b, int w) {
  std::vector<std::string> out;
  for (const std::string &line : all) {
    int block = -1, thread = -1;
    const char *p = std::strstr(line.c_str(), " b");
    if (p && std::sscanf(p, " b%d t%d", &block, &thread) == 2 &&
        block == b && thread / 32 == w)
      out.push_back(line.substr(0, line.find(' ')) + " t" +
                    std::to_string(thread));
  }
  return out;
}

int main() {
  FILE *capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    return 1;
  }
  fflush(stdout);
  int saved = dup(fileno(stdout));
  dup2(fileno(capture), fileno(stdout));
  two_lines<<<2, 64>>>();
  cudaDeviceSynchronize();
  rounds<<<1, 64>>>(2);
  cudaDeviceSynchronize();
  uneven<<<1, 32>>>();
  cudaDeviceSynchronize();
  fflush(stdout);
  dup2(saved, fileno(stdout));
  close(saved);

  std::vector<std::string> all;
  char buf[256];
  rewind(capture);
  while (fgets(buf, sizeof buf, capture)) {
    buf[std::strcspn(buf, "\n")] = '\0';
    all.push_back(buf);
  }
  fclose(capture);
  int failures = 0;
  std::vector<std::string> first_launch(all.begin(), all.begin() + 256);
  std::vector<std::string> second_launch(all.begin() + 256, all.begin() + 448);
  std::vector<std::string> third_launch(all.begin() + 448, all.end());
  const std::vector<std::string> uneven_want = {
      "lane0 line0", "lane0 line1", "lane0 line2", "lane1 after syncwarp",
      "lane0 line3", "lane1 after syncthreads"};
  if (third_launch != uneven_want) {
    std::printf("uneven: out of order:\n");
    for (const std::string &line : third_launch)
      std::printf("  %s\n", line.c_str());
    ++failures;
  }
  for (int b = 0; b < 2; ++b)
    for (int w = 0; w < 2; ++w) {
      std::vector<std::string> want;
      for (const char *kind : {"first", "second"})
        for (int lane = 0; lane < 32; ++lane)
          want.push_back(std::string(kind) + " t" + std::to_string(32 * w + lane));
      if (lines_of(first_launch, b, w) != want) {
        std::printf("two_lines: block %d warp %d out of order\n", b, w);
        ++failures;
      }
    }
  for (int w = 0; w < 2; ++w) {
    std::vector<std::string> want;
    for (const char *kind : {"round0", "round1"})
      for (int lane = 0; lane < 32; ++lane)
        want.push_back(std::string(kind) + " t" + std::to_string(32 * w + lane));
    std::vector<std::string> got = lines_of(second_launch, 0, w);
    std::vector<std::string> before(got.begin(), got.begin() + 64);
    if (before != want) {
      std::printf("rounds: warp %d out of order\n", w);
      ++failures;
    }
  }
  // Every line after the barrier comes after every line before it.
  size_t last_round = 0, first_after = second_launch.size();
  for (size_t i = 0; i < second_launch.size(); ++i) {
    if (second_launch[i].compare(0, 5, "round") == 0)
      last_round = i;
    else if (i < first_after)
      first_after = i;
  }
  if (all.size() != 256 + 192 + 6 || first_after < last_round) {
    std::printf("%zu lines; the barrier's order is wrong\n", all.size());
    ++failures;
  }
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
