// main.cpp: the host program of the relocatable-device-code project built
// for two architectures (arch_info.cu, arch_kernels.cu). On each device
// it prints the architecture branch that the kernel's code and the called
// device function's code take; the driver's rule picks sm_80's code on an
// 8.x device and sm_90's on 9.0, for the caller and the callee alike, and
// for the device code of a __host__ __device__ function of the other unit
// (its host code runs in host code).
// Then the code of each device in turn posts into the one mailbox (an
// extern __device__ variable) and counts the post (a static __device__
// variable of the other unit), and the next device's code reads them.
// cuemu's devices share a program's variables; on a GPU each device has
// its own, and the program runs on one device. tests/programs_rdcarch.sh.
#include <cstdio>

#include <cuda_runtime.h>

#include "arch_hd.h"
#include "arch_launch.h"

// Declared __host__ __device__ for the .cu units (arch_hd.h), host code
// here.
int host_only_mark() { return 3; }

int main()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    std::printf("FAIL: no device\n");
    return 1;
  }
  if (count > 2)
    count = 2;
  int failed = 0;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop;
    cudaSetDevice(i);
    cudaGetDeviceProperties(&prop, i);
    int caller = -1, callee = -1, host_device[2] = {-1, -1}, host[2] = {};
    int templates[3] = {-1, -1, -1};
    failed |= launch_report(&caller, &callee, host_device, host, templates);
    std::printf("device %d (%d.%d): caller %d callee %d host-device %d %d "
                "host %d %d templates %d %d %d\n",
                i, prop.major, prop.minor, caller, callee, host_device[0],
                host_device[1], host[0], host[1], templates[0], templates[1],
                templates[2]);
    const int want = prop.major >= 9 ? 900 : 800;
    failed |= caller != want || callee != want || host_device[0] != want ||
              host_device[1] != want + 2 || host[0] != -7 || host[1] != 1 ||
              templates[0] != want || templates[1] != want + 1 ||
              templates[2] != want + 7;
  }
  for (int round = 0; round < 2 * count; ++round) {
    const int writer = round % count, reader = (round + 1) % count;
    cudaSetDevice(writer);
    failed |= launch_post(round + 1);
    cudaSetDevice(reader);
    int value = -1, posts = -1, symbol = -1;
    failed |= launch_fetch(&value, &posts, &symbol);
    std::printf("device %d posted, device %d read: mailbox %d symbol %d "
                "posts %d\n",
                writer, reader, value, symbol, posts);
  }
  std::printf("%s\n", failed ? "FAIL" : "PASS");
  return failed;
}
