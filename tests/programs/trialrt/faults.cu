// What a renderer's error handling sees: launch errors caught by
// cudaGetLastError after each launch, the device heap limit (device new
// returning null), events without timing, and, in child processes, a
// device-side assert and a wild write, each reported with its file and line
// and sticky for the rest of the context. It includes Thrust's version
// header, as renderers print it: cuemu-nvcc then compiles the unit with
// clang++, which took the result of a kernel's new to be non-null and
// deleted a malloc whose memory did not escape.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cassert>
#include <string>
#include <chrono>
#include <unistd.h>
#include <sys/wait.h>
#include <thrust/version.h>
#include "rt/cuda_check.h"
#include "rt/vec3.h"

#define CHECK_EXPECT(call, expected)                                                           \
    do {                                                                                       \
        cudaError_t e__ = (call);                                                              \
        if (e__ != (expected)) {                                                               \
            fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call,    \
                    cudaGetErrorName(e__), cudaGetErrorName(expected));                       \
            ok = false;                                                                        \
        }                                                                                      \
    } while (0)

struct node {
    vec3 value;
    node *next;
    char *payload;
};

// Allocates a linked list on the device heap, as a BVH builder that uses
// new in a kernel would; counts what it got.
__global__ void alloc_nodes(int count, size_t bytes_each, int *got, node **first) {
    node *head = nullptr;
    int n = 0;
    for (int i = 0; i < count; i++) {
        char *extra = new char[bytes_each];
        if (extra == nullptr) break;
        node *nd = new node;
        if (nd == nullptr) {
            delete[] extra;
            break;
        }
        extra[0] = (char)i;
        nd->value = vec3(i, i, i);
        nd->payload = extra;
        nd->next = head;
        head = nd;
        n++;
    }
    *got = n;
    *first = head;
}

__global__ void free_nodes(node *head) {
    while (head) {
        node *next = head->next;
        delete[] head->payload;
        delete head;
        head = next;
    }
}

__global__ void big_malloc(size_t bytes, int *is_null) {
    void *p = malloc(bytes);
    *is_null = (p == nullptr);
    free(p);
}

__global__ void shade_pixels(float *img, int n, int max_depth) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(max_depth > 0 && "depth limit must be positive");
        img[i] = (float)i / n;
    }
}

__global__ void wild_write(float *img, long long offset) {
    img[offset] = 1.0f;
}

// Runs fn in a child process with stderr captured; returns its stderr.
template <class F>
static std::string in_child(F fn, int &status) {
    char path[] = "/tmp/faults_stderr_XXXXXX";
    int fd = mkstemp(path);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        fn();
        _exit(0);
    }
    waitpid(pid, &status, 0);
    std::string text;
    char buf[4096];
    lseek(fd, 0, SEEK_SET);
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) > 0) text.append(buf, k);
    close(fd);
    unlink(path);
    return text;
}

int main() {
    bool ok = true;
    fprintf(stderr, "built with Thrust %d.%d\n", THRUST_MAJOR_VERSION, THRUST_MINOR_VERSION);

    // Children first: a process that forks after using CUDA cannot use it in the child.
    int status = 0;
    std::string err = in_child([] {
        float *img;
        cudaMalloc(&img, 256 * sizeof(float));
        shade_pixels<<<2, 128>>>(img, 256, 0);
        cudaError_t launch = cudaGetLastError();
        cudaError_t sync = cudaDeviceSynchronize();
        cudaError_t after = cudaMemset(img, 0, 16);
        fprintf(stderr, "launch=%s sync=%s after=%s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
                cudaGetErrorName(after));
        exit(sync == cudaErrorAssert && after == cudaErrorAssert ? 0 : 3);
    }, status);
    if (getenv("FAULTS_SHOW")) fprintf(stderr, "%s", err.c_str());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        err.find("faults.cu:") == std::string::npos || err.find("Assertion") == std::string::npos ||
        err.find("depth limit must be positive") == std::string::npos ||
        err.find("launch=cudaSuccess sync=cudaErrorAssert after=cudaErrorAssert") == std::string::npos) {
        fprintf(stderr, "assert child (status %d):\n%s", status, err.c_str());
        ok = false;
    }

    err = in_child([] {
        float *img;
        checkCudaErrors(cudaMalloc(&img, 256 * sizeof(float)));
        wild_write<<<1, 1>>>(img, 1ll << 40);
        checkCudaErrors(cudaGetLastError());
        checkCudaErrors(cudaDeviceSynchronize());
    }, status);
    if (getenv("FAULTS_SHOW")) fprintf(stderr, "%s", err.c_str());
    // checkCudaErrors exits with 99 and names this file and the synchronize
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 99 || err.find("faults.cu:") == std::string::npos ||
        err.find("cudaDeviceSynchronize") == std::string::npos ||
        err.find("illegal memory access") == std::string::npos) {
        fprintf(stderr, "wild write child (status %d):\n%s", status, err.c_str());
        ok = false;
    }

    // A launch with too many threads is an error of the launch, not sticky.
    float *img;
    checkCudaErrors(cudaMalloc(&img, 4096 * sizeof(float)));
    shade_pixels<<<1, 2048>>>(img, 4096, 4);
    CHECK_EXPECT(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CHECK_EXPECT(cudaGetLastError(), cudaSuccess);
    shade_pixels<<<dim3(1, 1, 70000), 32>>>(img, 4096, 4);
    CHECK_EXPECT(cudaGetLastError(), cudaErrorInvalidConfiguration);
    shade_pixels<<<16, 256>>>(img, 4096, 4);
    CHECK_EXPECT(cudaGetLastError(), cudaSuccess);
    CHECK_EXPECT(cudaDeviceSynchronize(), cudaSuccess);

    // The device heap: 1 MiB, set before any kernel that allocates.
    size_t heap = 0;
    CHECK_EXPECT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20), cudaSuccess);
    CHECK_EXPECT(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess);
    if (heap < (1 << 20)) ok = false;
    int *d_flag;
    checkCudaErrors(cudaMallocManaged(&d_flag, 2 * sizeof(int)));
    big_malloc<<<1, 1>>>(64 << 20, d_flag);
    CHECK_EXPECT(cudaGetLastError(), cudaSuccess);
    CHECK_EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    if (d_flag[0] != 1) {
        fprintf(stderr, "malloc of 64 MiB from a 1 MiB heap did not return NULL\n");
        ok = false;
    }
    node **d_first;
    checkCudaErrors(cudaMallocManaged(&d_first, sizeof(node *)));
    alloc_nodes<<<1, 1>>>(100, 1 << 10, d_flag, d_first);
    CHECK_EXPECT(cudaGetLastError(), cudaSuccess);
    CHECK_EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    if (d_flag[0] != 100) {
        fprintf(stderr, "device new gave %d of 100 nodes\n", d_flag[0]);
        ok = false;
    }
    node **d_second;
    checkCudaErrors(cudaMallocManaged(&d_second, sizeof(node *)));
    alloc_nodes<<<1, 1>>>(4, 4 << 20, d_flag + 1, d_second);   // larger than the heap: new gives null
    CHECK_EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    if (d_flag[1] != 0) {
        fprintf(stderr, "device new[] of 4 MiB from a 1 MiB heap gave %d nodes\n", d_flag[1]);
        ok = false;
    }
    // Too late to change the heap now.
    CHECK_EXPECT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 << 20), cudaErrorInvalidValue);
    CHECK_EXPECT(cudaGetLastError(), cudaErrorInvalidValue);   // any failed call sets the last error
    CHECK_EXPECT(cudaGetLastError(), cudaSuccess);
    free_nodes<<<1, 1>>>(*d_first);
    free_nodes<<<1, 1>>>(*d_second);
    CHECK_EXPECT(cudaGetLastError(), cudaSuccess);

    // Timing: events with and without timing, std::chrono around a sync.
    cudaEvent_t a, b, c;
    checkCudaErrors(cudaEventCreate(&a));
    checkCudaErrors(cudaEventCreate(&b));
    checkCudaErrors(cudaEventCreateWithFlags(&c, cudaEventDisableTiming));
    float ms = -1;
    CHECK_EXPECT(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);
    (void)cudaGetLastError();
    auto t0 = std::chrono::steady_clock::now();
    checkCudaErrors(cudaEventRecord(a));
    shade_pixels<<<16, 256>>>(img, 4096, 4);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaEventRecord(b));
    checkCudaErrors(cudaEventRecord(c));
    CHECK_EXPECT(cudaEventSynchronize(b), cudaSuccess);
    double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK_EXPECT(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    if (!(ms >= 0.0f) || ms > wall + 1.0) {
        fprintf(stderr, "event time %.3f ms, wall %.3f ms\n", ms, wall);
        ok = false;
    }
    CHECK_EXPECT(cudaEventElapsedTime(&ms, a, c), cudaErrorInvalidResourceHandle);
    CHECK_EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EXPECT(cudaEventQuery(c), cudaSuccess);

    checkCudaErrors(cudaEventDestroy(a));
    checkCudaErrors(cudaEventDestroy(b));
    checkCudaErrors(cudaEventDestroy(c));
    checkCudaErrors(cudaFree(img));
    checkCudaErrors(cudaFree(d_flag));
    checkCudaErrors(cudaFree(d_first));
    checkCudaErrors(cudaFree(d_second));
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
