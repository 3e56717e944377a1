/*
 * bench_sort.cu: device-wide radix sorts of the toolkit's Thrust and CUB on
 * the emulator against a host sort of the same data, in one process:
 * thrust::sort_by_key of 2^20 (double, int) pairs, cub::DeviceRadixSort::
 * SortPairs of the same pairs and thrust::sort of 2^20 ints, each against
 * std::stable_sort of the same data on the host (which gives the same
 * order: the radix sorts are stable), the variants taking turns for a few
 * rounds and the minimum of each kept. Times are the process's CPU time,
 * so run it with CUEMU_WORKERS=1 (as run_bench.sh does): the time a sort
 * costs whatever else runs on the machine.
 *
 * Prints the times and "thrust_sort_by_key_over_host_sort: R" and the two
 * other ratios. The emulated sorts spend their time in CUB's onesweep
 * kernel: warp collectives (eight __ballot_sync per key and pass for its
 * match_any), barriers and shared-memory atomics (docs/thrust.md).
 * run_bench.sh runs it (row 18).
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

static double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned next_random(unsigned &s) {
  s = s * 1103515245u + 12345u;
  return s;
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  std::vector<double> keys(n);
  std::vector<int> values(n), ints(n);
  unsigned s = 12345;
  for (int i = 0; i < n; ++i) {
    keys[i] = (next_random(s) >> 8) * (1.0 / 16777216.0);
    values[i] = i;
    ints[i] = (int)next_random(s);
  }
  // The host's results, and its time for each.
  std::vector<std::pair<double, int>> pairs(n);
  std::vector<int> sorted_ints;
  const auto by_key = [](const std::pair<double, int> &a,
                         const std::pair<double, int> &b) {
    return a.first < b.first;
  };
  double host_pairs = 1e30, host_ints = 1e30;
  double thrust_pairs = 1e30, cub_pairs = 1e30, thrust_ints = 1e30;
  int bad = 0;

  double *d_keys_in, *d_keys_out;
  int *d_values_in, *d_values_out;
  cudaMalloc(&d_keys_in, n * sizeof(double));
  cudaMalloc(&d_keys_out, n * sizeof(double));
  cudaMalloc(&d_values_in, n * sizeof(int));
  cudaMalloc(&d_values_out, n * sizeof(int));
  size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_keys_in, d_keys_out,
                                  d_values_in, d_values_out, n);
  void *temp;
  cudaMalloc(&temp, temp_bytes);

  for (int round = 0; round < rounds; ++round) { /* interleaved */
    for (int i = 0; i < n; ++i)
      pairs[i] = {keys[i], values[i]};
    double t0 = cpu_seconds();
    std::stable_sort(pairs.begin(), pairs.end(), by_key);
    host_pairs = std::min(host_pairs, cpu_seconds() - t0);

    thrust::device_vector<double> tk(keys.begin(), keys.end());
    thrust::device_vector<int> tv(values.begin(), values.end());
    t0 = cpu_seconds();
    thrust::sort_by_key(tk.begin(), tk.end(), tv.begin());
    cudaDeviceSynchronize();
    thrust_pairs = std::min(thrust_pairs, cpu_seconds() - t0);
    std::vector<double> got_keys(n);
    std::vector<int> got_values(n);
    thrust::copy(tk.begin(), tk.end(), got_keys.begin());
    thrust::copy(tv.begin(), tv.end(), got_values.begin());
    for (int i = 0; i < n; ++i)
      bad += got_keys[i] != pairs[i].first || got_values[i] != pairs[i].second;

    cudaMemcpy(d_keys_in, keys.data(), n * sizeof(double),
               cudaMemcpyHostToDevice);
    cudaMemcpy(d_values_in, values.data(), n * sizeof(int),
               cudaMemcpyHostToDevice);
    t0 = cpu_seconds();
    cub::DeviceRadixSort::SortPairs(temp, temp_bytes, d_keys_in, d_keys_out,
                                    d_values_in, d_values_out, n);
    cudaDeviceSynchronize();
    cub_pairs = std::min(cub_pairs, cpu_seconds() - t0);
    cudaMemcpy(got_keys.data(), d_keys_out, n * sizeof(double),
               cudaMemcpyDeviceToHost);
    cudaMemcpy(got_values.data(), d_values_out, n * sizeof(int),
               cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
      bad += got_keys[i] != pairs[i].first || got_values[i] != pairs[i].second;

    sorted_ints = ints;
    t0 = cpu_seconds();
    std::stable_sort(sorted_ints.begin(), sorted_ints.end());
    host_ints = std::min(host_ints, cpu_seconds() - t0);

    thrust::device_vector<int> ti(ints.begin(), ints.end());
    t0 = cpu_seconds();
    thrust::sort(ti.begin(), ti.end());
    cudaDeviceSynchronize();
    thrust_ints = std::min(thrust_ints, cpu_seconds() - t0);
    std::vector<int> got_ints(n);
    thrust::copy(ti.begin(), ti.end(), got_ints.begin());
    bad += got_ints != sorted_ints;
  }
  std::printf("host_stable_sort_pairs_ms: %.1f\nthrust_sort_by_key_ms: %.1f\n"
              "cub_sort_pairs_ms: %.1f\nhost_stable_sort_ints_ms: %.1f\n"
              "thrust_sort_ints_ms: %.1f\n",
              host_pairs * 1e3, thrust_pairs * 1e3, cub_pairs * 1e3,
              host_ints * 1e3, thrust_ints * 1e3);
  std::printf("thrust_sort_by_key_ns_per_pair: %.0f\n", thrust_pairs * 1e9 / n);
  std::printf("thrust_sort_by_key_over_host_sort: %.2f\n",
              thrust_pairs / host_pairs);
  std::printf("cub_sort_pairs_over_host_sort: %.2f\n", cub_pairs / host_pairs);
  std::printf("thrust_sort_ints_over_host_sort: %.2f\n",
              thrust_ints / host_ints);
  if (bad)
    std::printf("wrong results: %d\n", bad);
  cudaFree(temp);
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(d_values_in);
  cudaFree(d_values_out);
  return bad ? 1 : 0;
}
