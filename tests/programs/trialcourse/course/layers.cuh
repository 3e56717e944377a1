#ifndef COURSE_LAYERS_CUH
#define COURSE_LAYERS_CUH
#include "nn_kernels.cuh"
#include "device_buffer.h"
#include <memory>
#include <string>

class Layer {
public:
    virtual ~Layer() = default;
    virtual const float* forward(const float* in, int batch) = 0;
    virtual const float* backward(const float* grad_out, int batch) = 0;
    virtual void step(float lr) {}
    virtual std::string name() const = 0;
    virtual int out_features() const = 0;
};

class Linear : public Layer {
public:
    Linear(int in, int out, const std::vector<float>& w, const std::vector<float>& b, int max_batch)
        : in_(in), out_(out), W_(w), b_(b), dW_(w.size()), db_(b.size()),
          y_(size_t(max_batch) * out), dx_(size_t(max_batch) * in) {}

    const float* forward(const float* in, int batch) override {
        x_ = in;
        dim3 block(TILE, TILE);
        dim3 grid(ceil_div(out_, TILE), ceil_div(batch, TILE));
        matmul_tiled<TILE, false, false><<<grid, block>>>(in, W_.data(), b_.data(), y_.data(),
                                                          batch, out_, in_, 0.0f);
        CUDA_CHECK_LAST();
        return y_.data();
    }
    const float* backward(const float* g, int batch) override {
        dim3 block(TILE, TILE);
        // dW[in,out] = x^T[in,batch] * g[batch,out]
        matmul_tiled<TILE, true, false><<<dim3(ceil_div(out_, TILE), ceil_div(in_, TILE)), block>>>(
            x_, g, nullptr, dW_.data(), in_, out_, batch, 0.0f);
        CUDA_CHECK_LAST();
        column_sum<128><<<out_, 128>>>(g, db_.data(), batch, out_);
        CUDA_CHECK_LAST();
        // dx[batch,in] = g[batch,out] * W^T[out,in]
        matmul_tiled<TILE, false, true><<<dim3(ceil_div(in_, TILE), ceil_div(batch, TILE)), block>>>(
            g, W_.data(), nullptr, dx_.data(), batch, in_, out_, 0.0f);
        CUDA_CHECK_LAST();
        return dx_.data();
    }
    void step(float lr) override {
        sgd_update<<<ceil_div(int(W_.size()), 256), 256>>>(W_.data(), dW_.data(), lr, int(W_.size()));
        sgd_update<<<ceil_div(out_, 256), 256>>>(b_.data(), db_.data(), lr, out_);
        CUDA_CHECK_LAST();
    }
    std::string name() const override { return "Linear(" + std::to_string(in_) + "," + std::to_string(out_) + ")"; }
    int out_features() const override { return out_; }
    std::vector<float> weights() const { return W_.download(); }

private:
    int in_, out_;
    DeviceBuffer<float> W_, b_, dW_, db_, y_, dx_;
    const float* x_ = nullptr;
};

class ReLU : public Layer {
public:
    ReLU(int features, int max_batch) : f_(features), y_(size_t(features) * max_batch),
                                        dx_(size_t(features) * max_batch) {}
    const float* forward(const float* in, int batch) override {
        x_ = in;
        int n = batch * f_;
        relu_forward<<<ceil_div(n, 256), 256>>>(in, y_.data(), n);
        CUDA_CHECK_LAST();
        return y_.data();
    }
    const float* backward(const float* g, int batch) override {
        int n = batch * f_;
        relu_backward<<<4, 128>>>(x_, g, dx_.data(), n);
        CUDA_CHECK_LAST();
        return dx_.data();
    }
    std::string name() const override { return "ReLU"; }
    int out_features() const override { return f_; }
private:
    int f_;
    DeviceBuffer<float> y_, dx_;
    const float* x_ = nullptr;
};

#endif
