/*
 * CUB device-wide algorithms that neither the other CCCL programs nor Thrust's algorithms
 * reach, each against a host computation: DeviceTransform of a tuple of two inputs,
 * DeviceMemcpy::Batched (50 buffers of 1..300 bytes, placed in reverse order) and
 * DeviceSegmentedReduce::ArgMin. Every algorithm is called twice, as CUB's users do: first for
 * the size of its temporary storage, then with it.
 * Built without optimisation, as tests/programs/thrust's are (docs/thrust.md, Cost).
 * CUEMU_OPTIONS: -Xcompiler -O0
 */
#include <cub/device/device_memcpy.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/tuple>
#include <vector>

#include "../check.cuh"

/* A device copy of a host vector (or n zeroed elements), freed by its destructor. */
template <class T> struct device_buffer {
  T *ptr = nullptr;
  size_t n = 0;
  explicit device_buffer(size_t count) : n(count) {
    cudaMalloc(&ptr, n * sizeof(T) + 1);
    cudaMemset(ptr, 0, n * sizeof(T) + 1);
  }
  explicit device_buffer(const std::vector<T> &host) : device_buffer(host.size()) {
    cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~device_buffer() { cudaFree(ptr); }
  std::vector<T> to_host() const {
    std::vector<T> host(n);
    CHECK(cudaMemcpy(host.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return host;
  }
};

struct axpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

static void check_transform() {
  const int n = 100003;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) {
    x[i] = (i % 113) * 0.5f;
    y[i] = (i % 29) - 3.0f;
  }
  device_buffer<float> dx(x), dy(y), dz(n);
  CHECK(cub::DeviceTransform::Transform(cuda::std::make_tuple(dx.ptr, dy.ptr), dz.ptr, n,
                                        axpy{2.0f}) == cudaSuccess);
  std::vector<float> z = dz.to_host();
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += z[i] != 2.0f * x[i] + y[i];
  CHECK(bad == 0);
}

static void check_batched_memcpy() {
  const int buffers = 50;
  std::vector<int> sizes(buffers), offsets(buffers);
  int total = 0;
  for (int b = 0; b < buffers; b++) {
    sizes[b] = (b * 37) % 300 + 1;
    offsets[b] = total;
    total += sizes[b];
  }
  std::vector<char> bytes(total);
  for (int i = 0; i < total; i++)
    bytes[i] = static_cast<char>(i * 7 + 3);
  device_buffer<char> src(bytes), dst(total);
  /* Buffer b goes to the place that mirrors its own: the last one first. */
  std::vector<void *> from(buffers), to(buffers);
  std::vector<size_t> lengths(buffers);
  for (int b = 0; b < buffers; b++) {
    from[b] = src.ptr + offsets[b];
    to[b] = dst.ptr + (total - offsets[b] - sizes[b]);
    lengths[b] = sizes[b];
  }
  device_buffer<void *> d_from(from), d_to(to);
  device_buffer<size_t> d_lengths(lengths);
  size_t temp_bytes = 0;
  CHECK(cub::DeviceMemcpy::Batched(nullptr, temp_bytes, d_from.ptr, d_to.ptr, d_lengths.ptr,
                                   buffers) == cudaSuccess);
  device_buffer<char> temp(temp_bytes);
  CHECK(cub::DeviceMemcpy::Batched(temp.ptr, temp_bytes, d_from.ptr, d_to.ptr, d_lengths.ptr,
                                   buffers) == cudaSuccess);
  std::vector<char> out = dst.to_host();
  int bad = 0;
  for (int b = 0; b < buffers; b++)
    for (int i = 0; i < sizes[b]; i++)
      bad += out[total - offsets[b] - sizes[b] + i] != bytes[offsets[b] + i];
  CHECK(bad == 0);
}

static void check_segmented_argmin() {
  const int n = 100003, segments = 40;
  std::vector<int> values(n), offsets(segments + 1);
  for (int i = 0; i < n; i++)
    values[i] = static_cast<int>((static_cast<long long>(i) * i) % 1009);
  for (int s = 0; s <= segments; s++)
    offsets[s] = static_cast<int>(static_cast<long long>(s) * n / segments);
  device_buffer<int> d_values(values), d_offsets(offsets);
  device_buffer<cub::KeyValuePair<int, int>> d_out(segments);
  size_t temp_bytes = 0;
  CHECK(cub::DeviceSegmentedReduce::ArgMin(nullptr, temp_bytes, d_values.ptr, d_out.ptr, segments,
                                           d_offsets.ptr, d_offsets.ptr + 1) == cudaSuccess);
  device_buffer<char> temp(temp_bytes);
  CHECK(cub::DeviceSegmentedReduce::ArgMin(temp.ptr, temp_bytes, d_values.ptr, d_out.ptr, segments,
                                           d_offsets.ptr, d_offsets.ptr + 1) == cudaSuccess);
  std::vector<cub::KeyValuePair<int, int>> out = d_out.to_host();
  int bad = 0;
  for (int s = 0; s < segments; s++) {
    int best = 0; /* the first of equal minima, relative to the segment */
    for (int i = offsets[s]; i < offsets[s + 1]; i++)
      if (values[i] < values[offsets[s] + best])
        best = i - offsets[s];
    bad += out[s].key != best || out[s].value != values[offsets[s] + best];
  }
  CHECK(bad == 0);
}

int main() {
  check_transform();
  check_batched_memcpy();
  check_segmented_argmin();
  return finish();
}
