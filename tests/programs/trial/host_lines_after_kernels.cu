/*
 * host_lines_after_kernels.cu: the host pass keeps the user's lines after a
 * kernel whose body holds a macro from a system header (NULL, assert,
 * FLT_MAX, INFINITY): the compiler's line there is the line of the source,
 * so messages, debug information (gdb's breakpoints on host lines) and
 * __builtin_LINE() name the right line. The host pass drops kernel bodies;
 * one that held such a macro on a line before its `}` used to put every
 * later line of the file one line early (NVIDIA's cudaGraphsPerfScaling
 * sample: a warning on the line before its variable).
 */
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdio>

#include "../check.cuh"

/* Spins until *latch is set or the bound runs out, as the sample's
 * waitWithTimeout does; reports whether it ran out. */
__global__ void wait_for(bool *timed_out, volatile int *latch, int bound)
{
    int spins = 0;
    while (spins < bound && (latch == NULL || *latch == 0))
        spins++;
    *timed_out = (latch == NULL || *latch == 0);
}

__global__ void smallest(const float *in, int n, float *out)
{
    float m = FLT_MAX;
    for (int i = 0; i < n; i++)
        m = fminf(m, in[i]);
    assert(n > 0);
    *out = n > 0 ? m : INFINITY;
}

/* The line the compiler gives the call, for the caller's line. */
static int compiler_line(int line = __builtin_LINE()) { return line; }

__global__ void device_lines(int *lines)
{
    lines[0] = __builtin_LINE(); lines[1] = __LINE__;
}

int main()
{
    CHECK(compiler_line() == __LINE__);
    bool *timed_out;
    int *latch, *lines;
    float *in, *out;
    CHECK(cudaMallocManaged(&timed_out, sizeof(bool)) == cudaSuccess);
    CHECK(cudaMallocManaged(&latch, sizeof(int)) == cudaSuccess);
    CHECK(cudaMallocManaged(&lines, 2 * sizeof(int)) == cudaSuccess);
    CHECK(cudaMallocManaged(&in, 4 * sizeof(float)) == cudaSuccess);
    CHECK(cudaMallocManaged(&out, sizeof(float)) == cudaSuccess);
    *latch = 1;
    wait_for<<<1, 1>>>(timed_out, latch, 1000);
    for (int i = 0; i < 4; i++)
        in[i] = 3.0f - i;
    smallest<<<1, 1>>>(in, 4, out);
    device_lines<<<1, 1>>>(lines);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(!*timed_out);
    CHECK(*out == 0.0f);
    CHECK(lines[0] == lines[1]);
    const int here = __LINE__; const int compiled = compiler_line();
    CHECK(compiled == here);
    cudaFree(out);
    cudaFree(in);
    cudaFree(lines);
    cudaFree(latch);
    cudaFree(timed_out);
    return finish();
}
