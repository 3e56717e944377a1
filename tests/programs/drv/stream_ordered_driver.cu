// stream_ordered_driver.cu: stream-ordered allocation and memory pools
// through the driver API, as a driver-API port of CUDA's
// streamOrderedAllocation sample does it: cuMemAllocAsync and cuMemFreeAsync
// in a stream, the device's default pool with a release threshold, an
// explicit pool (cuMemPoolCreate, cuMemAllocFromPoolAsync, its usage
// counters, cuMemPoolTrimTo), cuDeviceSetMemPool; and unified-memory hints:
// cuMemAdvise and cuMemPrefetchAsync in CUDA 13's form (CUmemLocation), read
// back with cuMemRangeGetAttribute(s); cuStreamAttachMemAsync. And pitched
// memory in a stream: cuMemsetD2D32Async, cuMemcpy2D(Async) and cuMemcpy3D
// with descriptors, between a pitched allocation and host rows.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstring>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static CUmemLocation device_location(int id) {
  CUmemLocation l;
  l.type = CU_MEM_LOCATION_TYPE_DEVICE;
  l.id = id;
  return l;
}

// A 5 x 7 sub-block of a pitched 16 x 8 matrix of ints: set, copied in from
// the host with a column offset, and copied out, in a stream.
static void pitched_copies(CUstream stream) {
  const size_t cols = 16, rows = 8;
  CUdeviceptr m;
  size_t pitch = 0;
  CU(cuMemAllocPitch(&m, &pitch, cols * sizeof(int), rows, sizeof(int)));
  CHECK(pitch >= cols * sizeof(int));
  CU(cuMemsetD2D32Async(m, pitch, 7u, cols, rows, stream));
  int block[5][7];
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 7; ++c)
      block[r][c] = 100 * r + c;
  CUDA_MEMCPY2D in;
  std::memset(&in, 0, sizeof in);
  in.srcMemoryType = CU_MEMORYTYPE_HOST;
  in.srcHost = block;
  in.srcPitch = sizeof block[0];
  in.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  in.dstDevice = m;
  in.dstPitch = pitch;
  in.dstXInBytes = 2 * sizeof(int); // column 2
  in.dstY = 1;                      // row 1
  in.WidthInBytes = sizeof block[0];
  in.Height = 5;
  CU(cuMemcpy2DAsync(&in, stream));
  std::vector<int> all(cols * rows, -1);
  CUDA_MEMCPY2D out;
  std::memset(&out, 0, sizeof out);
  out.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  out.srcDevice = m;
  out.srcPitch = pitch;
  out.dstMemoryType = CU_MEMORYTYPE_HOST;
  out.dstHost = all.data();
  out.dstPitch = cols * sizeof(int);
  out.WidthInBytes = cols * sizeof(int);
  out.Height = rows;
  CU(cuMemcpy2DAsync(&out, stream));
  CU(cuStreamSynchronize(stream));
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) {
      bool inside = r >= 1 && r < 6 && c >= 2 && c < 9;
      int want = inside ? static_cast<int>(100 * (r - 1) + (c - 2)) : 7;
      CHECK(all[r * cols + c] == want);
    }
  // One row through cuMemcpy3D, and a copy wider than the pitch.
  int row[16];
  CUDA_MEMCPY3D r3;
  std::memset(&r3, 0, sizeof r3);
  r3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  r3.srcDevice = m;
  r3.srcPitch = pitch;
  r3.srcY = 3;
  r3.dstMemoryType = CU_MEMORYTYPE_HOST;
  r3.dstHost = row;
  r3.dstPitch = sizeof row;
  r3.WidthInBytes = sizeof row;
  r3.Height = 1;
  r3.Depth = 1;
  CU(cuMemcpy3D(&r3));
  CHECK(row[0] == 7 && row[2] == 200 && row[8] == 206 && row[9] == 7);
  out.WidthInBytes = pitch + 4;
  CHECK(cuMemcpy2D(&out) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpy2D(nullptr) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemFree(m));
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUstream stream;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  // The default pool, kept from trimming at each synchronization.
  CUmemoryPool pool;
  CU(cuDeviceGetDefaultMemPool(&pool, dev));
  cuuint64_t threshold = ~0ull;
  CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                           &threshold));
  cuuint64_t read = 0;
  CU(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &read));
  CHECK(read == threshold);

  const size_t n = 1 << 12;
  std::vector<unsigned> host(n);
  for (int iter = 0; iter < 3; ++iter) {
    CUdeviceptr a;
    CU(cuMemAllocAsync(&a, n * sizeof(unsigned), stream));
    CU(cuMemsetD32Async(a, 0x1000u + iter, n, stream));
    CU(cuMemcpyDtoHAsync(host.data(), a, n * sizeof(unsigned), stream));
    CU(cuMemFreeAsync(a, stream));
    CU(cuStreamSynchronize(stream));
    CHECK(host[0] == 0x1000u + iter && host[n - 1] == 0x1000u + iter);
  }
  CU(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &read));
  CHECK(read == 0);

  // An explicit pool.
  CUmemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location = device_location(0);
  CUmemoryPool mine;
  CU(cuMemPoolCreate(&mine, &props));
  CUdeviceptr b;
  CU(cuMemAllocFromPoolAsync(&b, 1000, mine, stream));
  CU(cuMemPoolGetAttribute(mine, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &read));
  CHECK(read >= 1000);
  CUmemAccess_flags flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CUmemLocation here = device_location(0);
  CU(cuMemPoolGetAccess(&flags, mine, &here));
  CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CU(cuMemFreeAsync(b, stream));
  CU(cuStreamSynchronize(stream));
  CU(cuMemPoolTrimTo(mine, 0));
  CU(cuMemPoolGetAttribute(mine, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &read));
  CHECK(read == 0);
  // The device's current pool, then back to the default.
  CU(cuDeviceSetMemPool(dev, mine));
  CUmemoryPool current;
  CU(cuDeviceGetMemPool(&current, dev));
  CHECK(current == mine);
  CU(cuDeviceSetMemPool(dev, pool));
  props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
  CUmemoryPool bad;
  CHECK(cuMemPoolCreate(&bad, &props) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemPoolDestroy(mine));

  // Managed memory: advice and prefetches, read back.
  CUdeviceptr m;
  const size_t bytes = 1 << 16;
  CU(cuMemAllocManaged(&m, bytes, CU_MEM_ATTACH_GLOBAL));
  CU(cuMemAdvise(m, bytes, CU_MEM_ADVISE_SET_READ_MOSTLY, device_location(0)));
  int mostly = 0;
  CU(cuMemRangeGetAttribute(&mostly, sizeof mostly,
                            CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, bytes));
  CHECK(mostly == 1);
  CU(cuMemAdvise(m, bytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                 device_location(0)));
  CU(cuMemPrefetchAsync(m, bytes, device_location(0), 0, stream));
  CU(cuStreamSynchronize(stream));
  int preferred = -1, last = -1;
  void *data[] = {&preferred, &last};
  size_t sizes[] = {sizeof preferred, sizeof last};
  CUmem_range_attribute which[] = {
      CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
      CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID};
  CU(cuMemRangeGetAttributes(data, sizes, which, 2, m, bytes));
  CHECK(preferred == 0 && last == 0);
  CUmemLocation host_loc;
  host_loc.type = CU_MEM_LOCATION_TYPE_HOST;
  host_loc.id = 0;
  CU(cuMemPrefetchAsync(m, bytes, host_loc, 0, stream));
  CU(cuStreamSynchronize(stream));
  int last_type = -1;
  CU(cuMemRangeGetAttribute(&last_type, sizeof last_type,
                            CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
                            m, bytes));
  CHECK(last_type == CU_MEM_LOCATION_TYPE_HOST);
  CU(cuStreamAttachMemAsync(stream, m, 0, CU_MEM_ATTACH_SINGLE));
  CU(cuStreamSynchronize(stream));
  // A prefetch of memory that is not managed.
  CUdeviceptr plain;
  CU(cuMemAlloc(&plain, 256));
  CHECK(cuMemPrefetchAsync(plain, 256, device_location(0), 0, stream) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuMemFree(plain));
  CU(cuMemFree(m));

  pitched_copies(stream);
  CU(cuStreamDestroy(stream));
  CU(cuCtxDestroy(ctx));
  return finish();
}
