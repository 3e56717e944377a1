/*
 * cuemu_driver_link.h: the driver API's linker (cuLinkCreate,
 * cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy) over cuemu
 * modules. The inputs are cuemu modules (what cuemu-nvcc -cubin, -fatbin
 * and -ptx write, and NVRTC's PTX and CUBIN); built as relocatable device
 * code (cuemu-nvcc -rdc=true, NVRTC -rdc=true or -dc) a module exports its
 * external device functions and variables, so that a kernel of one input
 * may call a device function or use a variable defined in another.
 *
 * The linked image is a small module of its own that depends on its inputs
 * and carries them (see runtime/cuemu_drv_link_image.c): each load writes
 * the inputs into anonymous files of its own, so that the dynamic loader
 * resolves one input's references to another's definitions, and every load
 * has its own copies and so its own variables, as with CUDA's cubins. The
 * image is self-contained: written to a file, it is loaded by another
 * process (cuModuleLoad, cuLibraryLoadFromFile) as well as from memory
 * (cuModuleLoadData, cuLibraryLoadData, cudaLibraryLoadData). While a link
 * lasts, its inputs are stored as files in the compile cache folder (the
 * linker reads them); cuLinkDestroy removes them, as does the process's
 * exit. The image's kernel table is its inputs' tables together
 * (cuemu_link_describe). Making it needs a C compiler ($CC, else cc), as
 * NVRTC does. A reference of an input that no input defines (nor libcuemu
 * and the C++ runtime) is CUDA_ERROR_INVALID_IMAGE at cuLinkComplete, with
 * the linker's message on stderr and in the error log option.
 *
 * Driver codes (CUresult values) as int; host code, any thread (one link
 * state is used by one thread at a time, as in CUDA).
 */
#ifndef CUEMU_DRIVER_LINK_H
#define CUEMU_DRIVER_LINK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuemu_drv_link cuemu_drv_link;

int cuemu_drv_link_create(cuemu_drv_link **state);
/* The same without cuInit or a current context, which nvJitLink (the
 * shims' nvJitLink.h) does not need. */
int cuemu_jit_link_create(cuemu_drv_link **state);
/* An input image in memory (`size` bytes; 0: found from its ELF headers);
 * `name` is used in messages. A real NVIDIA image (PTX text, a cubin or a
 * fatbinary of nvcc's) is CUDA_ERROR_INVALID_IMAGE. */
int cuemu_drv_link_add_data(cuemu_drv_link *state, const void *data,
                            size_t size, const char *name);
int cuemu_drv_link_add_file(cuemu_drv_link *state, const char *path);
/* The linked image, owned by the state (valid until cuLinkDestroy); on a
 * failure, `error_log` (if not NULL, `log_size` bytes) gets the reason. */
int cuemu_drv_link_complete(cuemu_drv_link *state, void **image,
                            size_t *size, char *error_log, size_t log_size);
int cuemu_drv_link_destroy(cuemu_drv_link *state);

/* Called by a linked image's cuemu_module_describe(): the kernel tables of
 * the `n` loaded inputs at `paths`, together (made for each load). */
const void *cuemu_link_describe(const char *const *paths, int n);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DRIVER_LINK_H */
