#include "DeviceInfo.h"

#include <cuda_runtime.h>
#include <iomanip>

int deviceCount() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return 0;
    return n;
}

void printDeviceInfo(std::ostream &out, int device) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        out << "cannot query device " << device << "\n";
        return;
    }
    int clockKHz = 0, memClockKHz = 0, busWidth = 0;
    cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&memClockKHz, cudaDevAttrMemoryClockRate, device);
    cudaDeviceGetAttribute(&busWidth, cudaDevAttrGlobalMemoryBusWidth, device);
    int driverVersion = 0, runtimeVersion = 0;
    cudaDriverGetVersion(&driverVersion);
    cudaRuntimeGetVersion(&runtimeVersion);
    out << "Device " << device << ": " << prop.name << "\n"
        << "  compute capability   " << prop.major << "." << prop.minor << "\n"
        << "  global memory        " << (prop.totalGlobalMem >> 20) << " MiB\n"
        << "  shared mem per block " << prop.sharedMemPerBlock << " B\n"
        << "  multiprocessors      " << prop.multiProcessorCount << "\n"
        << "  warp size            " << prop.warpSize << "\n"
        << "  max threads/block    " << prop.maxThreadsPerBlock << "\n"
        << "  clock rate           " << clockKHz / 1000 << " MHz\n"
        << "  memory clock         " << memClockKHz / 1000 << " MHz, bus "
        << busWidth << " bits\n"
        << "  driver/runtime       " << driverVersion << "/" << runtimeVersion
        << "\n";
}
