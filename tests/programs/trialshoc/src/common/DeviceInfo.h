#ifndef DEVICE_INFO_H
#define DEVICE_INFO_H

#include <ostream>

// Prints the properties of a device (compiled by the host compiler against
// the CUDA runtime's headers).
void printDeviceInfo(std::ostream &out, int device);
int deviceCount();

#endif
