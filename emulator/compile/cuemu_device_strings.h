/*
 * cuemu_device_strings.h: the section that the device pass's string
 * literals go to (a kernel's __FILE__, its messages), which the program's
 * registration tracks as device memory, as a GPU keeps them in the
 * module's global memory: the host may copy one back with cudaMemcpy or
 * ask cuMemGetAddressRange about it (::cuemu::declare_device_strings,
 * cuemu_kernel_thunks.h). Internal to cuemu-cc.
 */
#ifndef CUEMU_DEVICE_STRINGS_H
#define CUEMU_DEVICE_STRINGS_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

#define CUEMU_DEVICE_STRINGS_SECTION "cuemu_device_strings"

/* Writes the linker script that gathers the string sections of a device
 * pass's object (`.rodata.str1.1`, and `.rodata.FUNCTION.str1.1` under
 * -fdata-sections) into CUEMU_DEVICE_STRINGS_SECTION when `ld -r` links
 * it, at `path` (`size` bytes), named after `temp`. */
cuemu_status cuemu__device_strings_script(const char *temp, char *path,
                                          size_t size);

#endif /* CUEMU_DEVICE_STRINGS_H */
