/*
 * cuemu_fat_module.h: a module file of several device passes, one a
 * virtual architecture, as cuemu-nvcc -fatbin makes it for several
 * -gencode architectures, and the pick of the one that the emulated device
 * runs, as CUDA's driver picks an image of a fat binary when the module
 * loads (docs/nvcc-checks.md, "One device pass per virtual architecture").
 * Internal to libcuemu.
 *
 * The file: the magic "CUEMUFAT", the number of passes (8 bytes, little
 * endian), and for each a record of 256 bytes (its offset and size in the
 * file, 8 bytes each, and its images, "sm_80,compute_80", NUL-terminated),
 * then the passes' modules (shared objects, each at an offset that is a
 * multiple of 16), each of them a module of one pass with its own images
 * (cuemu_module_images).
 */
#ifndef CUEMU_FAT_MODULE_H
#define CUEMU_FAT_MODULE_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

#define CUEMU_FAT_MODULE_MAGIC "CUEMUFAT"

/* Non-zero when the n bytes at data (n may exceed what is there when the
 * caller knows no size: only the magic is read) begin a fat module. */
int cuemu__fat_module_is(const void *data, size_t n);

/* Writes to `path` the fat module of the modules in the files parts[0..n),
 * each with its images lists[i]. Returns CUEMU_SUCCESS, CUEMU_IO_ERROR,
 * CUEMU_OUT_OF_MEMORY or CUEMU_INVALID_VALUE (n out of 1..16). */
cuemu_status cuemu__fat_module_write(const char *path, const char *const *parts,
                                     const char *const *lists, int n);

/* The module of the fat module at `data` that the emulated device runs
 * (cuemu__device_pick_list()): its start, its size into *size. NULL when
 * none runs, or the data is malformed; then `images` (room for `cap`
 * bytes) holds every pass's images, comma-separated, for the message. */
const void *cuemu__fat_module_pick(const void *data, size_t *size, char *images,
                                   size_t cap);

#endif /* CUEMU_FAT_MODULE_H */
