/*
 * cuemu_pci_api.h: devices by their PCI bus id (cudaDeviceGetPCIBusId,
 * cudaDeviceGetByPCIBusId), in CUDA 13's signatures. An emulated device's
 * id is made of the PCI domain, bus and device numbers its properties give
 * (cudaDevAttrPciDomainId, PciBusId, PciDeviceId), written as CUDA writes
 * them, "0000:01:00.0"; the driver's cuDeviceGetPCIBusId and
 * cuDeviceGetByPCIBusId (cuda.h) forward here. Included at the end of
 * cuda_runtime_api.h.
 */
#ifndef CUEMU_PCI_API_H
#define CUEMU_PCI_API_H

#include "cuda_runtime_api.h"

#include <cstdio>

namespace cuemu {
namespace rt {
/* The PCI domain, bus and device numbers of `device`; a runtime code. */
inline cudaError_t pci_of(int device, int *domain, int *bus, int *dev) {
  cudaError_t e =
      cudaDeviceGetAttribute(domain, cudaDevAttrPciDomainId, device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(bus, cudaDevAttrPciBusId, device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(dev, cudaDevAttrPciDeviceId, device);
  return e;
}
} // namespace rt
} // namespace cuemu

/* The id, cut to `len` bytes with its NUL (13 characters in all). */
inline cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  if (!pciBusId || len <= 0)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  int domain = 0, bus = 0, dev = 0;
  cudaError_t e = cuemu::rt::pci_of(device, &domain, &bus, &dev);
  if (e == cudaSuccess)
    std::snprintf(pciBusId, static_cast<size_t>(len), "%04x:%02x:%02x.0",
                  domain, bus, dev);
  return e;
}

/* Takes "domain:bus:device.function", "domain:bus:device" and
 * "bus:device.function" (hexadecimal): cudaErrorInvalidValue for another
 * form, cudaErrorInvalidDevice when no device has the id. */
inline cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  unsigned domain = 0, bus = 0, dev = 0, fn = 0;
  char end = 0;
  bool parsed =
      pciBusId &&
      (std::sscanf(pciBusId, "%x:%x:%x.%x%c", &domain, &bus, &dev, &fn,
                   &end) == 4 ||
       std::sscanf(pciBusId, "%x:%x:%x%c", &domain, &bus, &dev, &end) == 3 ||
       (domain = 0,
        std::sscanf(pciBusId, "%x:%x.%x%c", &bus, &dev, &fn, &end) == 3));
  if (!device || !parsed)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  for (int __cuemu_i = 0; e == cudaSuccess && __cuemu_i < count; ++__cuemu_i) {
    int d = 0, b = 0, v = 0;
    e = cuemu::rt::pci_of(__cuemu_i, &d, &b, &v);
    if (e == cudaSuccess && static_cast<unsigned>(d) == domain &&
        static_cast<unsigned>(b) == bus && static_cast<unsigned>(v) == dev) {
      *device = __cuemu_i;
      return cudaSuccess;
    }
  }
  return e == cudaSuccess
             ? static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidDevice))
             : e;
}

#endif /* CUEMU_PCI_API_H */
