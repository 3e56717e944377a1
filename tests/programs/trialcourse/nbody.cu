#include "course/nbody_kernels.cuh"
#include "course/device_buffer.h"
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <vector>
#include <iostream>

int main()
{
    try {
        const int n = 1000, steps = 3;
        const float dt = 0.01f;
        constexpr int BLOCK = 128;
        std::vector<float4> pos(n), vel(n);
        srand(42);
        for (int i = 0; i < n; ++i) {
            pos[i] = make_float4(rand() / (float)RAND_MAX - 0.5f, rand() / (float)RAND_MAX - 0.5f,
                                 rand() / (float)RAND_MAX - 0.5f, 1.0f / n);
            vel[i] = make_float4(0, 0, 0, 0);
        }
        DeviceBuffer<float4> d_pos(pos), d_new(n), d_vel(vel);
        for (int s = 0; s < steps; ++s) {
            nbody_step<BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK, BLOCK * sizeof(float4)>>>(
                d_pos.data(), d_new.data(), d_vel.data(), n, dt);
            CUDA_CHECK(cudaGetLastError());
            std::swap(d_pos, d_new);
        }
        std::vector<float4> got = d_pos.download();

        std::vector<float4> hp = pos, hv = vel, hn(n);
        for (int s = 0; s < steps; ++s) {
            for (int i = 0; i < n; ++i) {
                float3 a = {0, 0, 0};
                for (int j = 0; j < n; ++j) a = body_body(hp[i], hp[j], a);
                hv[i].x += a.x * dt; hv[i].y += a.y * dt; hv[i].z += a.z * dt;
                hn[i] = make_float4(hp[i].x + hv[i].x * dt, hp[i].y + hv[i].y * dt,
                                    hp[i].z + hv[i].z * dt, hp[i].w);
            }
            std::swap(hp, hn);
        }
        double err = 0;
        for (int i = 0; i < n; ++i)
            err = fmax(err, fabs(got[i].x - hp[i].x) + fabs(got[i].y - hp[i].y) + fabs(got[i].z - hp[i].z));
        printf("nbody: %d bodies, %d steps, max error %.3e\n", n, steps, err);
        bool ok = err < 1e-3;
        printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
