/* stream_frames.cu: tracer frames computed on two streams, copied back
 * double-buffered into pinned memory and written to a CSV file by the host
 * while the next frame runs; a statistic in mapped (zero-copy) memory.
 * From the trialsph trial; also run under CUEMU_CHECK_SCHEDULES=1.
 * CUEMU_OPTIONS: -Isim
 * NVCC_OPTIONS: -Isim
 */
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim/advect.cuh"
#include "sim/frame_writer.cpp"
#include <sim_check.h>

int main()
{
    const int n = 3000, frames = 12, substeps = 5;
    const float dt = 0.01f;

    /* must come before any call that creates the context */
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceMapHost));
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, 0));
    if (!prop.canMapHostMemory) {
        printf("device cannot map host memory\nFAIL\n");
        return 1;
    }

    /* zero-copy statistics: one max-speed slot per frame */
    unsigned int *h_maxBits = nullptr, *d_maxBits = nullptr;
    checkCudaErrors(cudaHostAlloc((void **)&h_maxBits, frames * sizeof(unsigned int),
                                  cudaHostAllocMapped | cudaHostAllocPortable));
    memset(h_maxBits, 0, frames * sizeof(unsigned int));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_maxBits, h_maxBits, 0));

    std::vector<float4> init(n);
    for (int i = 0; i < n; i++) {
        float a = 6.2831853f * i / n;
        float r = 0.05f + 0.4f * (i % 97) / 97.0f;
        init[i] = make_float4(0.5f + r * cosf(a), 0.5f + r * sinf(a), 0.01f * (i % 7), 1.0f);
    }

    float4 *d_pos, *d_snap[2], *h_snap[2];
    checkCudaErrors(cudaMalloc(&d_pos, n * sizeof(float4)));
    checkCudaErrors(cudaMemcpy(d_pos, init.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    cudaStream_t streams[2];
    cudaEvent_t computed[2], copied[2];
    for (int b = 0; b < 2; b++) {
        checkCudaErrors(cudaMalloc(&d_snap[b], n * sizeof(float4)));
        checkCudaErrors(cudaMallocHost((void **)&h_snap[b], n * sizeof(float4)));
        checkCudaErrors(cudaStreamCreateWithFlags(&streams[b], cudaStreamNonBlocking));
        checkCudaErrors(cudaEventCreateWithFlags(&computed[b], cudaEventDisableTiming));
        checkCudaErrors(cudaEventCreateWithFlags(&copied[b], cudaEventDisableTiming));
    }

    const char *tmp = getenv("TMPDIR");
    std::string base = std::string(tmp ? tmp : "/tmp") + "/stream_io_" + std::to_string(getpid());
    std::string csv = base + ".csv", vtk = base + ".vtk";
    bool ok = true;
    {
        FrameWriter writer(csv);
        if (!writer.ok()) {
            printf("cannot write %s\nFAIL\n", csv.c_str());
            return 1;
        }
        int threads = 128, blocks = (n + threads - 1) / threads;
        for (int f = 0; f < frames; f++) {
            int b = f & 1;
            cudaStream_t s = streams[b];
            /* the advection of frame f needs frame f-1 (other stream) */
            if (f > 0) checkCudaErrors(cudaStreamWaitEvent(s, computed[b ^ 1], 0));
            advectKernel<<<blocks, threads, 0, s>>>(d_pos, n, f * substeps * dt, dt, substeps,
                                                    d_snap[b], d_maxBits + f);
            getLastCudaError("advectKernel");
            checkCudaErrors(cudaEventRecord(computed[b], s));
            checkCudaErrors(cudaMemcpyAsync(h_snap[b], d_snap[b], n * sizeof(float4),
                                            cudaMemcpyDeviceToHost, s));
            checkCudaErrors(cudaEventRecord(copied[b], s));
            /* write the previous frame while this one is in flight */
            if (f > 0) {
                checkCudaErrors(cudaEventSynchronize(copied[b ^ 1]));
                writer.writeFrame(f - 1, h_snap[b ^ 1], n);
            }
        }
        int last = (frames - 1) & 1;
        checkCudaErrors(cudaEventSynchronize(copied[last]));
        writer.writeFrame(frames - 1, h_snap[last], n);
        ok = FrameWriter::writeVtk(vtk, h_snap[last], n) && ok;
    }
    checkCudaErrors(cudaDeviceSynchronize());

    /* host reference, and the file read back */
    std::vector<std::vector<float4> > fileFrames;
    ok = FrameWriter::readCsv(csv, fileFrames) && ok;
    ok = ok && (int)fileFrames.size() == frames;
    std::vector<float3> hp(n);
    for (int i = 0; i < n; i++) hp[i] = make_float3(init[i]);
    double maxErr = 0, maxStatErr = 0;
    for (int f = 0; f < frames && ok; f++) {
        float t = f * substeps * dt, vmax = 0.0f;
        for (int i = 0; i < n; i++) {
            float tt = t;
            for (int s = 0; s < substeps; s++) {
                hp[i] = rk2(hp[i], tt, dt);
                tt += dt;
            }
            vmax = fmaxf(vmax, length(vortexVelocity(hp[i], tt)));
            if ((int)fileFrames[f].size() != n) { ok = false; break; }
            maxErr = fmax(maxErr, length(make_float3(fileFrames[f][i]) - hp[i]));
        }
        float devMax;
        memcpy(&devMax, &h_maxBits[f], sizeof devMax);
        maxStatErr = fmax(maxStatErr, fabs(devMax - vmax));
    }
    printf("%d frames of %d tracers: max |x - x_host| %.3g, max speed error %.3g\n", frames, n,
           maxErr, maxStatErr);
    ok = ok && maxErr < 1e-4 && maxStatErr < 1e-4;

    FILE *vf = fopen(vtk.c_str(), "r");
    char head[64] = {0};
    ok = ok && vf && fgets(head, sizeof head, vf) && strncmp(head, "# vtk DataFile", 14) == 0;
    if (vf) fclose(vf);
    unlink(csv.c_str());
    unlink(vtk.c_str());

    for (int b = 0; b < 2; b++) {
        cudaFree(d_snap[b]);
        cudaFreeHost(h_snap[b]);
        cudaStreamDestroy(streams[b]);
        cudaEventDestroy(computed[b]);
        cudaEventDestroy(copied[b]);
    }
    cudaFree(d_pos);
    cudaFreeHost(h_maxBits);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
