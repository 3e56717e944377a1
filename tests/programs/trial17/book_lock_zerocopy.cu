// book_lock_zerocopy.cu: chapter programs in the style of a "CUDA by
// example" repository, sharing common/book.h: a hash table whose buckets
// are guarded by per-bucket spin locks (the lanes of a warp take turns,
// `if ((tid % 32) == i)`, so that no lane spins on a lock its own warp
// holds), built on the device and checked on the host after its pointers
// are rebased; then a dot product over mapped (zero-copy) host memory,
// half of it computed by a second host thread; then two streams that
// interleave their copies and kernels over pinned memory.
#include "common/book.h"
#include "common/lock.h"
#include <math.h>

#define ELEMENTS (64 * 1024)
#define HASH_ENTRIES 256
#define N (256 * 1024)
#define threadsPerBlock 256
#define blocksPerGrid 32

struct Entry {
  unsigned int key;
  void *value;
  Entry *next;
};

struct Table {
  size_t count;
  Entry **entries;
  Entry *pool;
};

__device__ __host__ size_t hash(unsigned int key, size_t count) { return key % count; }

__global__ void add_to_table(const unsigned int *keys, void **values, Table table, Lock *lock) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (tid < ELEMENTS) {
    unsigned int key = keys[tid];
    size_t hashValue = hash(key, table.count);
    for (int i = 0; i < 32; i++) {
      if ((tid % 32) == i) {
        Entry *location = &(table.pool[tid]);
        location->key = key;
        location->value = values[tid];
        lock[hashValue].lock();
        location->next = table.entries[hashValue];
        table.entries[hashValue] = location;
        lock[hashValue].unlock();
      }
    }
    tid += stride;
  }
}

static int check_table(const Table &dev) {
  Entry **entries = (Entry **)calloc(dev.count, sizeof(Entry *));
  Entry *pool = (Entry *)malloc(ELEMENTS * sizeof(Entry));
  HANDLE_ERROR(cudaMemcpy(entries, dev.entries, dev.count * sizeof(Entry *), cudaMemcpyDeviceToHost));
  HANDLE_ERROR(cudaMemcpy(pool, dev.pool, ELEMENTS * sizeof(Entry), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < dev.count; i++)
    if (entries[i] != NULL) entries[i] = pool + (entries[i] - dev.pool);
  for (int i = 0; i < ELEMENTS; i++)
    if (pool[i].next != NULL) pool[i].next = pool + (pool[i].next - dev.pool);
  int count = 0, bad = 0;
  for (size_t i = 0; i < dev.count; i++)
    for (Entry *e = entries[i]; e != NULL; e = e->next) {
      count++;
      if (hash(e->key, dev.count) != i) bad++;
    }
  free(entries);
  free(pool);
  printf("%d elements found in hash table, %d in the wrong bucket\n", count, bad);
  return count == ELEMENTS && bad == 0;
}

static int hash_table_part(void) {
  unsigned int *buffer = (unsigned int *)big_random_block(ELEMENTS * sizeof(unsigned int));
  unsigned int *dev_keys;
  void **dev_values;
  HANDLE_ERROR(cudaMalloc((void **)&dev_keys, ELEMENTS * sizeof(unsigned int)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_values, ELEMENTS * sizeof(void *)));
  HANDLE_ERROR(cudaMemcpy(dev_keys, buffer, ELEMENTS * sizeof(unsigned int), cudaMemcpyHostToDevice));
  Table table;
  table.count = HASH_ENTRIES;
  HANDLE_ERROR(cudaMalloc((void **)&table.entries, HASH_ENTRIES * sizeof(Entry *)));
  HANDLE_ERROR(cudaMemset(table.entries, 0, HASH_ENTRIES * sizeof(Entry *)));
  HANDLE_ERROR(cudaMalloc((void **)&table.pool, ELEMENTS * sizeof(Entry)));
  Lock lock[HASH_ENTRIES];
  Lock *dev_lock;
  HANDLE_ERROR(cudaMalloc((void **)&dev_lock, HASH_ENTRIES * sizeof(Lock)));
  HANDLE_ERROR(cudaMemcpy(dev_lock, lock, HASH_ENTRIES * sizeof(Lock), cudaMemcpyHostToDevice));
  add_to_table<<<60, 256>>>(dev_keys, dev_values, table, dev_lock);
  HANDLE_ERROR(cudaGetLastError());
  int ok = check_table(table);
  HANDLE_ERROR(cudaFree(table.pool));
  HANDLE_ERROR(cudaFree(table.entries));
  HANDLE_ERROR(cudaFree(dev_lock));
  HANDLE_ERROR(cudaFree(dev_keys));
  HANDLE_ERROR(cudaFree(dev_values));
  free(buffer);
  return ok;
}

__global__ void dot(int size, const float *a, const float *b, float *c) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  float temp = 0;
  while (tid < size) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (int i = blockDim.x / 2; i != 0; i /= 2) {
    if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) c[blockIdx.x] = cache[0];
}

struct DataStruct {
  int offset;
  int size;
  float *a;
  float *b;
  float returnValue;
};

static void *routine(void *pvoidData) {
  DataStruct *data = (DataStruct *)pvoidData;
  float *dev_a, *dev_b, *dev_partial_c, partial_c[blocksPerGrid];
  HANDLE_ERROR(cudaHostGetDevicePointer(&dev_a, data->a, 0));
  HANDLE_ERROR(cudaHostGetDevicePointer(&dev_b, data->b, 0));
  HANDLE_ERROR(cudaMalloc((void **)&dev_partial_c, blocksPerGrid * sizeof(float)));
  dot<<<blocksPerGrid, threadsPerBlock>>>(data->size, dev_a + data->offset, dev_b + data->offset,
                                          dev_partial_c);
  HANDLE_ERROR(cudaMemcpy(partial_c, dev_partial_c, sizeof partial_c, cudaMemcpyDeviceToHost));
  float c = 0;
  for (int i = 0; i < blocksPerGrid; i++) c += partial_c[i];
  HANDLE_ERROR(cudaFree(dev_partial_c));
  data->returnValue = c;
  return 0;
}

static int zero_copy_part(void) {
  cudaDeviceProp prop;
  HANDLE_ERROR(cudaGetDeviceProperties(&prop, 0));
  if (prop.canMapHostMemory != 1) {
    printf("Device can not map memory.\n");
    return 0;
  }
  HANDLE_ERROR(cudaSetDeviceFlags(cudaDeviceMapHost));
  float *a, *b;
  unsigned flags = cudaHostAllocWriteCombined | cudaHostAllocPortable | cudaHostAllocMapped;
  HANDLE_ERROR(cudaHostAlloc((void **)&a, N * sizeof(float), flags));
  HANDLE_ERROR(cudaHostAlloc((void **)&b, N * sizeof(float), flags));
  for (int i = 0; i < N; i++) {
    a[i] = i % 64;
    b[i] = 2;
  }
  DataStruct data[2] = {{0, N / 2, a, b, 0}, {N / 2, N / 2, a, b, 0}};
  pthread_t thread = start_thread(routine, &data[1]);
  routine(&data[0]);
  end_thread(thread);
  HANDLE_ERROR(cudaFreeHost(a));
  HANDLE_ERROR(cudaFreeHost(b));
  double expect = (N / 64) * 2.0 * (63 * 64 / 2);
  double got = (double)data[0].returnValue + data[1].returnValue;
  printf("zero-copy dot %.1f, expected %.1f\n", got, expect);
  return fabs(got - expect) <= 1e-6 * expect;
}

__global__ void average(const int *a, const int *b, int *c, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) {
    int idx1 = (idx + 1) % 256, idx2 = (idx + 2) % 256;
    float as = (a[idx] + a[idx1] + a[idx2]) / 3.0f;
    float bs = (b[idx] + b[idx1] + b[idx2]) / 3.0f;
    c[idx] = (as + bs) / 2;
  }
}

static int streams_part(void) {
  const int chunk = 64 * 1024, full = chunk * 8;
  cudaStream_t stream[2];
  int *host_a, *host_b, *host_c, *dev_a[2], *dev_b[2], *dev_c[2];
  for (int s = 0; s < 2; s++) {
    HANDLE_ERROR(cudaStreamCreate(&stream[s]));
    HANDLE_ERROR(cudaMalloc((void **)&dev_a[s], chunk * sizeof(int)));
    HANDLE_ERROR(cudaMalloc((void **)&dev_b[s], chunk * sizeof(int)));
    HANDLE_ERROR(cudaMalloc((void **)&dev_c[s], chunk * sizeof(int)));
  }
  HANDLE_ERROR(cudaHostAlloc((void **)&host_a, full * sizeof(int), cudaHostAllocDefault));
  HANDLE_ERROR(cudaHostAlloc((void **)&host_b, full * sizeof(int), cudaHostAllocDefault));
  HANDLE_ERROR(cudaHostAlloc((void **)&host_c, full * sizeof(int), cudaHostAllocDefault));
  for (int i = 0; i < full; i++) {
    host_a[i] = rand() % 1000;
    host_b[i] = rand() % 1000;
  }
  // Breadth-first issue: the copies of both streams, then both kernels.
  for (int i = 0; i < full; i += chunk * 2) {
    for (int s = 0; s < 2; s++)
      HANDLE_ERROR(cudaMemcpyAsync(dev_a[s], host_a + i + s * chunk, chunk * sizeof(int),
                                   cudaMemcpyHostToDevice, stream[s]));
    for (int s = 0; s < 2; s++)
      HANDLE_ERROR(cudaMemcpyAsync(dev_b[s], host_b + i + s * chunk, chunk * sizeof(int),
                                   cudaMemcpyHostToDevice, stream[s]));
    for (int s = 0; s < 2; s++)
      average<<<chunk / 256, 256, 0, stream[s]>>>(dev_a[s], dev_b[s], dev_c[s], chunk);
    for (int s = 0; s < 2; s++)
      HANDLE_ERROR(cudaMemcpyAsync(host_c + i + s * chunk, dev_c[s], chunk * sizeof(int),
                                   cudaMemcpyDeviceToHost, stream[s]));
  }
  for (int s = 0; s < 2; s++) HANDLE_ERROR(cudaStreamSynchronize(stream[s]));
  int bad = 0;
  for (int base = 0; base < full; base += chunk)
    for (int idx = 0; idx < chunk; idx += 97) {
      const int *a = host_a + base, *b = host_b + base;
      int idx1 = (idx + 1) % 256, idx2 = (idx + 2) % 256;
      float as = (a[idx] + a[idx1] + a[idx2]) / 3.0f;
      float bs = (b[idx] + b[idx1] + b[idx2]) / 3.0f;
      if (host_c[base + idx] != (int)((as + bs) / 2)) bad++;
    }
  HANDLE_ERROR(cudaFreeHost(host_a));
  HANDLE_ERROR(cudaFreeHost(host_b));
  HANDLE_ERROR(cudaFreeHost(host_c));
  for (int s = 0; s < 2; s++) {
    HANDLE_ERROR(cudaFree(dev_a[s]));
    HANDLE_ERROR(cudaFree(dev_b[s]));
    HANDLE_ERROR(cudaFree(dev_c[s]));
    HANDLE_ERROR(cudaStreamDestroy(stream[s]));
  }
  printf("streams: %d bad values\n", bad);
  return bad == 0;
}

int main(void) {
  int ok = hash_table_part();
  ok &= zero_copy_part();
  ok &= streams_part();
  printf(ok ? "PASS\n" : "FAIL\n");
  return !ok;
}
