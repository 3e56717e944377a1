// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// vmm_vector.cu - a growable device vector built on the CUDA virtual memory
// management API: physical chunks (cuMemCreate) are mapped into one reserved
// virtual range and the range is re-reserved and remapped when it runs out,
// without copying data. Chunks alternate between devices (striping), each
// mapping is made accessible to every device, and one chunk is exported as a
// POSIX file descriptor and re-imported.
#define MGPU_USE_DRIVER
#include <cstdint>
#include <unistd.h>
#include <vector>
#include "mgpu_check.h"

__global__ void append_values(unsigned *v, size_t begin, size_t end) {
  size_t i = begin + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < end) v[i] = (unsigned)(i * 2654435761u);
}

__global__ void checksum(const unsigned *v, size_t n, unsigned long long *sum) {
  unsigned long long local = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    local += v[i];
  atomicAdd(sum, local);
}

class DeviceVector {
 public:
  DeviceVector(std::vector<int> devices) : devices_(devices) {
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = devices_[0];
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CU_CHECK(cuMemGetAllocationGranularity(&gran_, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  }
  ~DeviceVector() {
    if (base_) {
      CU_CHECK(cuMemUnmap(base_, mapped_));
      CU_CHECK(cuMemAddressFree(base_, reserved_));
    }
    for (auto h : handles_) CU_CHECK(cuMemRelease(h));
  }
  // Grows the mapped size to at least bytes; returns the number of remaps.
  void reserve(size_t bytes) {
    size_t want = (bytes + gran_ - 1) / gran_ * gran_;
    if (want <= mapped_) return;
    if (want > reserved_) {
      // Try to extend the reservation in place, otherwise move.
      size_t new_res = std::max(want, reserved_ * 2);
      CUdeviceptr nb = 0;
      CUresult r = base_ ? cuMemAddressReserve(&nb, new_res - reserved_, 0, base_ + reserved_, 0)
                         : CUDA_ERROR_UNKNOWN;
      if (r == CUDA_SUCCESS && nb == base_ + reserved_) {
        ranges_.push_back({nb, new_res - reserved_});
        reserved_ = new_res;
      } else {
        if (r == CUDA_SUCCESS) CU_CHECK(cuMemAddressFree(nb, new_res - reserved_));
        CU_CHECK(cuMemAddressReserve(&nb, new_res, 0, 0, 0));
        // Remap the existing chunks at the new address.
        size_t off = 0;
        for (size_t k = 0; k < handles_.size(); ++k) {
          CU_CHECK(cuMemMap(nb + off, gran_, 0, handles_[k], 0));
          off += gran_;
        }
        if (base_) {
          CU_CHECK(cuMemUnmap(base_, mapped_));
          for (auto &rg : ranges_) CU_CHECK(cuMemAddressFree(rg.first, rg.second));
        }
        ranges_.clear();
        ranges_.push_back({nb, new_res});
        base_ = nb;
        reserved_ = new_res;
        ++moves_;
        if (mapped_) set_access(base_, mapped_);
      }
    }
    while (mapped_ < want) {
      CUmemAllocationProp prop = {};
      prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
      prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      prop.location.id = devices_[handles_.size() % devices_.size()];
      prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
      CUmemGenericAllocationHandle h;
      CU_CHECK(cuMemCreate(&h, gran_, &prop, 0));
      CU_CHECK(cuMemMap(base_ + mapped_, gran_, 0, h, 0));
      handles_.push_back(h);
      set_access(base_ + mapped_, gran_);
      mapped_ += gran_;
    }
  }
  unsigned *data() const { return reinterpret_cast<unsigned *>(base_); }
  size_t capacity_bytes() const { return mapped_; }
  int moves() const { return moves_; }
  size_t granularity() const { return gran_; }
  CUmemGenericAllocationHandle chunk(size_t k) const { return handles_[k]; }

 private:
  void set_access(CUdeviceptr p, size_t sz) {
    std::vector<CUmemAccessDesc> acc(devices_.size());
    for (size_t d = 0; d < devices_.size(); ++d) {
      acc[d].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      acc[d].location.id = devices_[d];
      acc[d].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    CU_CHECK(cuMemSetAccess(p, sz, acc.data(), acc.size()));
  }
  std::vector<int> devices_;
  std::vector<CUmemGenericAllocationHandle> handles_;
  std::vector<std::pair<CUdeviceptr, size_t>> ranges_;
  CUdeviceptr base_ = 0;
  size_t gran_ = 0, reserved_ = 0, mapped_ = 0;
  int moves_ = 0;
};

int main() {
  CU_CHECK(cuInit(0));
  int ndev = 0;
  CU_CHECK(cuDeviceGetCount(&ndev));
  std::vector<int> devs;
  for (int d = 0; d < ndev && d < 2; ++d) {
    CUdevice dev;
    int vmm = 0;
    CU_CHECK(cuDeviceGet(&dev, d));
    CU_CHECK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
    if (vmm) devs.push_back(d);
  }
  if (devs.empty()) { std::printf("no VMM support\n"); return 1; }
  CUDA_CHECK(cudaSetDevice(0));  // runtime and primary context for kernels

  bool ok = true;
  {
    DeviceVector vec(devs);
    size_t count = 0;
    const size_t step = 700000;  // elements appended per round, ~2.8 MB
    for (int round = 0; round < 5; ++round) {
      vec.reserve((count + step) * sizeof(unsigned));
      int dev = devs[round % devs.size()];
      CUDA_CHECK(cudaSetDevice(dev));
      append_values<<<(unsigned)((step + 255) / 256), 256>>>(vec.data(), count, count + step);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      count += step;
    }
    std::printf("vector: %zu elements in %zu MiB, %d moves, %zu device(s)\n", count,
                vec.capacity_bytes() >> 20, vec.moves(), devs.size());
    unsigned long long *d_sum, sum = 0, want = 0;
    CUDA_CHECK(cudaSetDevice(devs.back()));
    CUDA_CHECK(cudaMallocManaged(&d_sum, sizeof *d_sum));
    *d_sum = 0;
    checksum<<<64, 256>>>(vec.data(), count, d_sum);
    CUDA_CHECK(cudaDeviceSynchronize());
    sum = *d_sum;
    for (size_t i = 0; i < count; ++i) want += (unsigned)(i * 2654435761u);
    std::printf("checksum %llu, want %llu\n", sum, want);
    ok = ok && sum == want;
    CUDA_CHECK(cudaFree(d_sum));

    // Export the first chunk and map it a second time through the fd.
    int fd = -1;
    CU_CHECK(cuMemExportToShareableHandle(&fd, vec.chunk(0), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUmemGenericAllocationHandle imported;
    CU_CHECK(cuMemImportFromShareableHandle(&imported, (void *)(uintptr_t)fd,
                                            CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fd);
    CUmemAllocationProp got = {};
    CU_CHECK(cuMemGetAllocationPropertiesFromHandle(&got, imported));
    if (got.location.id != devs[0]) { std::printf("imported handle: location %d, want %d\n", got.location.id, devs[0]); ok = false; }
    CUdeviceptr alias;
    size_t g = vec.granularity();
    CU_CHECK(cuMemAddressReserve(&alias, g, 0, 0, 0));
    CU_CHECK(cuMemMap(alias, g, 0, imported, 0));
    CUmemAccessDesc a = {};
    a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.location.id = devs[0];
    a.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    CU_CHECK(cuMemSetAccess(alias, g, &a, 1));
    unsigned long long flags = 0;
    CUmemLocation loc = a.location;
    CU_CHECK(cuMemGetAccess(&flags, &loc, alias));
    if (flags != CU_MEM_ACCESS_FLAGS_PROT_READ) { std::printf("access flags %llu\n", flags); ok = false; }
    std::vector<unsigned> head(16), head2(16);
    CUDA_CHECK(cudaMemcpy(head.data(), (void *)alias, 64, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(head2.data(), vec.data(), 64, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; ++i) ok = ok && head[i] == head2[i] && head[i] == (unsigned)(i * 2654435761u);
    CU_CHECK(cuMemUnmap(alias, g));
    CU_CHECK(cuMemAddressFree(alias, g));
    CU_CHECK(cuMemRelease(imported));
  }
  return mgpu_report(ok, "vmm_vector");
}
