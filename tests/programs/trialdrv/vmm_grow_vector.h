// vmm_grow_vector.h: a device vector that grows in place or remaps.
#pragma once
// A device vector that grows in place: it reserves virtual address space and
// maps more physical chunks behind it; when the next range is taken it
// reserves a larger one and remaps the chunks it has.
#include "drv_helpers.h"
#include <vector>

class VectorMemMap {
  CUdeviceptr d_p = 0;
  CUmemAllocationProp prop = {};
  CUmemAccessDesc accessDesc = {};
  struct Range { CUdeviceptr start; size_t sz; };
  std::vector<Range> va_ranges;
  std::vector<CUmemGenericAllocationHandle> handles;
  std::vector<size_t> handle_sizes;
  size_t alloc_sz = 0, reserve_sz = 0, chunk_sz = 0;

 public:
  int remaps = 0, in_place = 0;
  explicit VectorMemMap(CUcontext context) {
    CUdevice device;
    CUcontext prev;
    checkCudaErrors(cuCtxGetCurrent(&prev));
    checkCudaErrors(cuCtxSetCurrent(context));
    checkCudaErrors(cuCtxGetDevice(&device));
    checkCudaErrors(cuCtxSetCurrent(prev));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = (int)device;
    prop.win32HandleMetaData = NULL;
    accessDesc.location = prop.location;
    accessDesc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    checkCudaErrors(cuMemGetAllocationGranularity(&chunk_sz, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  }
  ~VectorMemMap() {
    if (d_p != 0) {
      checkCudaErrors(cuMemUnmap(d_p, alloc_sz));
      for (auto &r : va_ranges) checkCudaErrors(cuMemAddressFree(r.start, r.sz));
      for (auto h : handles) checkCudaErrors(cuMemRelease(h));
    }
  }
  CUdeviceptr getPointer() const { return d_p; }
  size_t getSize() const { return alloc_sz; }
  size_t getReserved() const { return reserve_sz; }

  CUresult reserve(size_t new_sz) {
    CUresult status = CUDA_SUCCESS;
    CUdeviceptr new_ptr = 0ULL;
    if (new_sz <= reserve_sz) return CUDA_SUCCESS;
    const size_t aligned_sz = ((new_sz + chunk_sz - 1) / chunk_sz) * chunk_sz;
    // Try to extend the range we have, right after its end.
    status = cuMemAddressReserve(&new_ptr, aligned_sz - reserve_sz, 0ULL, d_p + reserve_sz, 0ULL);
    if (status != CUDA_SUCCESS || new_ptr != d_p + reserve_sz) {
      if (new_ptr != 0ULL) (void)cuMemAddressFree(new_ptr, aligned_sz - reserve_sz);
      // Take a new range and move the mappings there.
      status = cuMemAddressReserve(&new_ptr, aligned_sz, 0ULL, 0U, 0);
      if (status == CUDA_SUCCESS && d_p != 0ULL) {
        CUdeviceptr ptr = new_ptr;
        status = cuMemUnmap(d_p, alloc_sz);
        for (size_t i = 0ULL; i < handles.size() && status == CUDA_SUCCESS; i++) {
          status = cuMemMap(ptr, handle_sizes[i], 0ULL, handles[i], 0ULL);
          if (status == CUDA_SUCCESS) status = cuMemSetAccess(ptr, handle_sizes[i], &accessDesc, 1ULL);
          ptr += handle_sizes[i];
        }
        for (auto &r : va_ranges) (void)cuMemAddressFree(r.start, r.sz);
        va_ranges.clear();
      }
      if (status == CUDA_SUCCESS) {
        ++remaps;
        d_p = new_ptr;
        reserve_sz = aligned_sz;
        va_ranges.push_back({new_ptr, aligned_sz});
      } else if (new_ptr) {
        (void)cuMemAddressFree(new_ptr, aligned_sz);
      }
    } else {
      ++in_place;
      va_ranges.push_back({new_ptr, aligned_sz - reserve_sz});
      if (d_p == 0ULL) d_p = new_ptr;
      reserve_sz = aligned_sz;
    }
    return status;
  }

  CUresult grow(size_t new_sz) {
    CUresult status = CUDA_SUCCESS;
    CUmemGenericAllocationHandle handle;
    if (new_sz <= alloc_sz) return CUDA_SUCCESS;
    const size_t size_diff = new_sz - alloc_sz;
    const size_t sz = ((size_diff + chunk_sz - 1) / chunk_sz) * chunk_sz;
    if ((status = reserve(alloc_sz + sz)) != CUDA_SUCCESS) return status;
    if ((status = cuMemCreate(&handle, sz, &prop, 0)) == CUDA_SUCCESS) {
      if ((status = cuMemMap(d_p + alloc_sz, sz, 0ULL, handle, 0ULL)) == CUDA_SUCCESS) {
        if ((status = cuMemSetAccess(d_p + alloc_sz, sz, &accessDesc, 1ULL)) == CUDA_SUCCESS) {
          handles.push_back(handle);
          handle_sizes.push_back(sz);
          alloc_sz += sz;
        }
        if (status != CUDA_SUCCESS) (void)cuMemUnmap(d_p + alloc_sz, sz);
      }
      if (status != CUDA_SUCCESS) (void)cuMemRelease(handle);
    }
    return status;
  }
};
