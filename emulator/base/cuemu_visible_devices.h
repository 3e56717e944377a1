/*
 * cuemu_visible_devices.h: CUDA_VISIBLE_DEVICES over the emulated devices
 * (read by cuemu_config.c, which owns the environment). The list names
 * the devices a program sees, renumbered from 0 in its order; each entry
 * is a device index (its leading digits, as strtoul() reads them) or a
 * "GPU-" prefix of a device's UUID (as nvidia-smi prints it), and the
 * first invalid entry (out of range, unknown or ambiguous UUID, repeated,
 * not a number, any "MIG-" name) ends the list,
 * as with CUDA. Host code, any thread.
 */
#ifndef CUEMU_VISIBLE_DEVICES_H
#define CUEMU_VISIBLE_DEVICES_H

/* The bytes of the UUID of emulated device `physical` (its index among
 * CUEMU_DEVICE's devices, whatever CUDA_VISIBLE_DEVICES shows). */
void cuemu__device_uuid_bytes(int physical, unsigned char uuid[16]);

/* Parses `list` over `count` devices into map[0..n-1] (the physical index
 * of each visible device, at most `count` of them) and returns n: 0 for
 * an empty list or one whose first entry is invalid. */
int cuemu__visible_devices_parse(const char *list, int count, int *map);

#endif /* CUEMU_VISIBLE_DEVICES_H */
