// init_copy_source_thrust_sort.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init cudaMemcpy source never written line 24
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/sequence.h>
#include <thrust/iterator/zip_iterator.h>

/* Thrust sorts the (double, int) pairs that a zip iterator makes through
 * temporary storage of thrust::tuple<double, int>, 16 bytes of which 4 are
 * padding that nothing writes, and copies that storage back: the copy's
 * source is reported (a public vantage-point tree sorts its levels
 * so). The copy is Thrust's, made on the stream
 * deep in CUB's dispatch; the report names the line of the program that
 * called Thrust, not the shims' cudaMemcpyAsync. */
int main() {
  const int n = 100;
  thrust::device_vector<int> keys(n);
  thrust::device_vector<double> dist(n, 1.5);
  thrust::device_vector<int> ids(n);
  thrust::sequence(keys.rbegin(), keys.rend());
  thrust::sequence(ids.begin(), ids.end());
  thrust::stable_sort_by_key(keys.begin(), keys.end(), thrust::make_zip_iterator(thrust::make_tuple(dist.begin(), ids.begin())));
  int first = ids[0];
  printf("first id %d\n", first);
  return first == n - 1 ? 0 : 1;
}
