/*
 * perturbed_lookback.cu: CUB's decoupled look-back scans and sorts under
 * schedule perturbation (CUEMU_CHECK_SCHEDULES=1, set by the program
 * itself; a GPU ignores it). The perturbed run takes the blocks last first
 * within each wave, so each block starts by waiting for predecessors that
 * have not started: the emulator must see the waiting warp spin (its lanes
 * poll one tile each, with relaxed vector loads, between __any_sync) and
 * start more workers. It did not, and a 16384-int exclusive scan ended in
 * cudaErrorLaunchTimeout after a minute. Sizes: 9 tiles of int (8-byte
 * tile words) and of double (16-byte words), with __threadfence_block
 * between polls, as CUB does below 500 tiles (above, it sleeps, which
 * yields); a radix sort (onesweep's look-back) and a reduce-by-key.
 *
 * CUEMU_OPTIONS: -Xcompiler -O0
 */
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cccl_test.cuh"

template <typename T> static void scan_of(int n) {
  std::vector<T> h(n);
  generator g(n);
  for (int i = 0; i < n; ++i)
    h[i] = static_cast<T>(g.range(0, 9));
  thrust::device_vector<T> in(h.begin(), h.end()), out(n);
  thrust::exclusive_scan(in.begin(), in.end(), out.begin());
  std::vector<T> got(n);
  thrust::copy(out.begin(), out.end(), got.begin());
  T sum = 0;
  for (int i = 0; i < n; ++i) {
    CHECK(got[i] == sum);
    sum += h[i];
  }
}

static void sort_of(int n) {
  std::vector<unsigned> h(n);
  generator g(n + 7);
  for (int i = 0; i < n; ++i)
    h[i] = g.next();
  thrust::device_vector<unsigned> d(h.begin(), h.end());
  thrust::sort(d.begin(), d.end());
  std::vector<unsigned> got(n);
  thrust::copy(d.begin(), d.end(), got.begin());
  std::sort(h.begin(), h.end());
  CHECK(got == h);
}

static void reduce_by_key_of(int n) {
  std::vector<int> keys(n), values(n, 1);
  for (int i = 0; i < n; ++i)
    keys[i] = i / 3;
  thrust::device_vector<int> k(keys.begin(), keys.end()),
      v(values.begin(), values.end()), ko(n), vo(n);
  auto ends = thrust::reduce_by_key(k.begin(), k.end(), v.begin(), ko.begin(),
                                    vo.begin());
  int groups = static_cast<int>(ends.first - ko.begin());
  CHECK(groups == (n + 2) / 3);
  std::vector<int> got(groups);
  thrust::copy(vo.begin(), vo.begin() + groups, got.begin());
  for (int i = 0; i < groups; ++i)
    CHECK(got[i] == (i == groups - 1 && n % 3 ? n % 3 : 3));
}

int main() {
  setenv("CUEMU_CHECK_SCHEDULES", "1", 1);
  scan_of<int>(16384);
  scan_of<double>(16384);
  sort_of(50000);
  reduce_by_key_of(20000);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
