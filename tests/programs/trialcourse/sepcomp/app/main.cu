// NVCC_OPTIONS: -rdc=true -I../lib
// Uses device functions and a __constant__ table from the static library.
#include "physics.cuh"
#include "integrate.cuh"
#include "../../course/device_buffer.h"
#include <cstdio>
#include <cmath>
#include <vector>

__global__ void rotate_and_eval(const float2* in, float2* out, float* poly, int n, float angle)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float2 r = rotate(in[i], angle);
    out[i] = r;
    poly[i] = poly_eval(r.x) + c_coeffs[0];
}

static float host_poly(const float* c, float x)
{
    float r = 0;
    for (int i = NUM_COEFFS - 1; i >= 0; --i) r = fmaf(r, x, c[i]);
    return r;
}

int main()
{
    try {
        const int n = 1000;
        const float coeffs[NUM_COEFFS] = {0.5f, -1.0f, 0.25f, 2.0f, -0.125f, 0.0625f};
        physics::set_coefficients(coeffs);

        std::vector<float2> pts(n);
        std::vector<float> xs(n);
        for (int i = 0; i < n; ++i) {
            pts[i] = make_float2(std::cos(i * 0.01f), std::sin(i * 0.02f));
            xs[i] = -1.0f + 2.0f * i / n;
        }
        DeviceBuffer<float2> d_in(pts), d_out(n);
        DeviceBuffer<float> d_poly(n), d_x(xs), d_y(n);
        const float angle = 0.3f;
        rotate_and_eval<<<(n + 255) / 256, 256>>>(d_in.data(), d_out.data(), d_poly.data(), n, angle);
        CUDA_CHECK(cudaGetLastError());
        integrate(d_x.data(), d_y.data(), n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());

        auto out = d_out.download();
        auto poly = d_poly.download();
        auto ys = d_y.download();
        double err = 0;
        for (int i = 0; i < n; ++i) {
            float c = std::cos(angle), s = std::sin(angle);
            float rx = c * pts[i].x - s * pts[i].y, ry = s * pts[i].x + c * pts[i].y;
            err = std::fmax(err, std::fabs(out[i].x - rx) + std::fabs(out[i].y - ry));
            err = std::fmax(err, std::fabs(poly[i] - (host_poly(coeffs, out[i].x) + coeffs[0])));
            err = std::fmax(err, std::fabs(ys[i] - host_poly(coeffs, xs[i])));
        }
        int count = physics::eval_count();
        printf("sepcomp: max error %.3e, device evaluations %d\n", err, count);
        bool ok = err < 1e-4 && count == 2 * n;
        printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
