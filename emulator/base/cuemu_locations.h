/*
 * cuemu_locations.h: where cuemu's own files are, for the compiles that
 * libcuemu runs (cuemu-cc, cuemu-nvcc, NVRTC): the shims (the CUDA headers
 * the emulator provides), cuemu's public headers and libcuemu's folder.
 *
 * Each is, in order: the environment variable that names it
 * (CUEMU_SHIMS_DIR, CUEMU_INCLUDE_DIR, CUEMU_LIB_DIR); else the folders
 * that the cuemu-toolkit beside libcuemu leads to, so that a build tree
 * and an installed cuemu both work without any variable, wherever they
 * are (emulator/export/toolkit.am: the toolkit's include/cuda_runtime.h is
 * a link into the shims, include/cuemu one to cuemu's headers); else the
 * folders configured for `make install`.
 */
#ifndef CUEMU_LOCATIONS_H
#define CUEMU_LOCATIONS_H

const char *cuemu__location_shims(void);
const char *cuemu__location_include(void);
const char *cuemu__location_lib(void);

#endif /* CUEMU_LOCATIONS_H */
