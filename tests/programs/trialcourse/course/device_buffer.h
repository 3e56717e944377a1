#ifndef COURSE_DEVICE_BUFFER_H
#define COURSE_DEVICE_BUFFER_H
#include "cuda_check.h"
#include <vector>
#include <utility>
#include <cstddef>

// Owns a device allocation of n elements of T.
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) : n_(n) {
        if (n_) CUDA_CHECK(cudaMalloc(&ptr_, n_ * sizeof(T)));
    }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
        upload(host);
    }
    ~DeviceBuffer() { release(); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    DeviceBuffer(DeviceBuffer&& other) noexcept
        : ptr_(std::exchange(other.ptr_, nullptr)), n_(std::exchange(other.n_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            ptr_ = std::exchange(other.ptr_, nullptr);
            n_ = std::exchange(other.n_, 0);
        }
        return *this;
    }

    void upload(const std::vector<T>& host) {
        CUDA_CHECK(cudaMemcpy(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        CUDA_CHECK(cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    void zero() { CUDA_CHECK(cudaMemset(ptr_, 0, n_ * sizeof(T))); }

    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    size_t size() const { return n_; }

private:
    void release() noexcept {
        if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        n_ = 0;
    }
    T* ptr_ = nullptr;
    size_t n_ = 0;
};

class CudaEvent {
public:
    CudaEvent() { CUDA_CHECK(cudaEventCreate(&ev_)); }
    ~CudaEvent() { if (ev_) cudaEventDestroy(ev_); }
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    CudaEvent(CudaEvent&& o) noexcept : ev_(std::exchange(o.ev_, nullptr)) {}
    void record(cudaStream_t s = 0) { CUDA_CHECK(cudaEventRecord(ev_, s)); }
    float elapsed_since(const CudaEvent& start) const {
        float ms = 0.f;
        CUDA_CHECK(cudaEventSynchronize(ev_));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start.ev_, ev_));
        return ms;
    }
private:
    cudaEvent_t ev_ = nullptr;
};

#endif
