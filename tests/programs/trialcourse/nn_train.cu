// A two-layer MLP trained with SGD on synthetic data, checked against a host implementation.
#include "course/layers.cuh"
#include <cstdio>
#include <cmath>
#include <random>
#include <vector>
#include <memory>
#include <iostream>

struct HostMLP {
    int in, hid, out;
    std::vector<float> W1, b1, W2, b2;
    float train_step(const std::vector<float>& X, const std::vector<int>& y, int B, float lr) {
        std::vector<float> h(B * hid), a(B * hid), z(B * out), p(B * out), g(B * out);
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < hid; ++c) {
                float s = b1[c];
                for (int k = 0; k < in; ++k) s += X[r * in + k] * W1[k * hid + c];
                h[r * hid + c] = s; a[r * hid + c] = s > 0 ? s : 0;
            }
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < out; ++c) {
                float s = b2[c];
                for (int k = 0; k < hid; ++k) s += a[r * hid + k] * W2[k * out + c];
                z[r * out + c] = s;
            }
        float loss = 0;
        for (int r = 0; r < B; ++r) {
            float m = -1e30f, s = 0;
            for (int c = 0; c < out; ++c) m = std::max(m, z[r * out + c]);
            for (int c = 0; c < out; ++c) s += std::exp(z[r * out + c] - m);
            for (int c = 0; c < out; ++c) {
                p[r * out + c] = std::exp(z[r * out + c] - m) / s;
                g[r * out + c] = (p[r * out + c] - (c == y[r])) / B;
            }
            loss += -std::log(p[r * out + y[r]]) / B;
        }
        std::vector<float> dW2(hid * out, 0), db2(out, 0), da(B * hid, 0), dW1(in * hid, 0), db1(hid, 0);
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < out; ++c) {
                db2[c] += g[r * out + c];
                for (int k = 0; k < hid; ++k) {
                    dW2[k * out + c] += a[r * hid + k] * g[r * out + c];
                    da[r * hid + k] += g[r * out + c] * W2[k * out + c];
                }
            }
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < hid; ++c) {
                float d = h[r * hid + c] > 0 ? da[r * hid + c] : 0;
                db1[c] += d;
                for (int k = 0; k < in; ++k) dW1[k * hid + c] += X[r * in + k] * d;
            }
        for (size_t i = 0; i < W1.size(); ++i) W1[i] -= lr * dW1[i];
        for (size_t i = 0; i < b1.size(); ++i) b1[i] -= lr * db1[i];
        for (size_t i = 0; i < W2.size(); ++i) W2[i] -= lr * dW2[i];
        for (size_t i = 0; i < b2.size(); ++i) b2[i] -= lr * db2[i];
        return loss;
    }
};

static std::vector<float> random_vec(std::mt19937& rng, size_t n, float scale) {
    std::uniform_real_distribution<float> d(-scale, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

int run() {
    const int B = 64, IN = 20, HID = 48, OUT = 10, STEPS = 8;
    const float lr = 0.5f;
    std::mt19937 rng(1234);
    auto X = random_vec(rng, B * IN, 1.0f);
    std::vector<int> y(B);
    for (int r = 0; r < B; ++r) {  // label: argmax of a fixed projection
        int best = 0;
        for (int c = 1; c < OUT; ++c) if (X[r * IN + c] > X[r * IN + best]) best = c;
        y[r] = best;
    }
    HostMLP host{IN, HID, OUT, random_vec(rng, IN * HID, 0.3f), random_vec(rng, HID, 0.1f),
                 random_vec(rng, HID * OUT, 0.3f), random_vec(rng, OUT, 0.1f)};

    std::vector<std::unique_ptr<Layer>> net;
    net.push_back(std::make_unique<Linear>(IN, HID, host.W1, host.b1, B));
    net.push_back(std::make_unique<ReLU>(HID, B));
    net.push_back(std::make_unique<Linear>(HID, OUT, host.W2, host.b2, B));
    for (const auto& l : net) std::cout << l->name() << " -> " << l->out_features() << "\n";

    DeviceBuffer<float> dX(X);
    DeviceBuffer<int> dy(y);
    DeviceBuffer<float> probs(B * OUT), grad(B * OUT), loss(1);

    bool ok = true;
    float first = 0, last = 0;
    for (int step = 0; step < STEPS; ++step) {
        const float* act = dX.data();
        for (auto& l : net) act = l->forward(act, B);
        loss.zero();
        int threads = 128;
        softmax_xent<<<ceil_div(B * 32, threads), threads>>>(act, dy.data(), probs.data(), grad.data(),
                                                           loss.data(), B, OUT);
        CUDA_CHECK_LAST();
        const float* g = grad.data();
        for (auto it = net.rbegin(); it != net.rend(); ++it) g = (*it)->backward(g, B);
        for (auto& l : net) l->step(lr);
        CUDA_CHECK(cudaDeviceSynchronize());
        float dev_loss = loss.download()[0];
        float host_loss = host.train_step(X, y, B, lr);
        printf("step %d: loss device %.5f host %.5f\n", step, dev_loss, host_loss);
        if (std::fabs(dev_loss - host_loss) > 1e-3f * std::max(1.0f, host_loss)) ok = false;
        if (step == 0) first = dev_loss;
        last = dev_loss;
    }
    auto W2 = static_cast<Linear*>(net[2].get())->weights();
    double maxdiff = 0;
    for (size_t i = 0; i < W2.size(); ++i) maxdiff = std::max(maxdiff, double(std::fabs(W2[i] - host.W2[i])));
    printf("max |W2 device - host| = %.2e\n", maxdiff);
    if (maxdiff > 1e-3 || !(last < first)) ok = false;

    // Move semantics: a moved-from buffer is empty, the target owns the memory.
    DeviceBuffer<float> a(std::vector<float>{1, 2, 3});
    DeviceBuffer<float> b = std::move(a);
    DeviceBuffer<float> c;
    c = std::move(b);
    if (a.data() != nullptr || b.size() != 0 || c.download()[2] != 3.0f) ok = false;

    // The error macro throws with CUDA's message.
    try {
        CUDA_CHECK(cudaMemcpy(nullptr, c.data(), 1ull << 40, cudaMemcpyDeviceToHost));
        ok = false;
        printf("expected an exception\n");
    } catch (const std::runtime_error& e) {
        printf("caught: %s\n", e.what());
        cudaGetLastError();
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

int main() {
    try {
        return run();
    } catch (const std::exception& e) {
        std::cerr << "fatal: " << e.what() << std::endl;
        return 2;
    }
}
