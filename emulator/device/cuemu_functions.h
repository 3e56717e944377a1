/*
 * cuemu_functions.h: the device's table of kernels. One entry per kernel
 * address: the kernel's descriptor when one was registered (the kernels of
 * whole programs, cuemu_program_register()) and the attributes that
 * cudaFuncSetAttribute and cuemu_kernel_set_max_dynamic_shared() change.
 * A kernel's static attributes (__launch_bounds__, static shared memory)
 * come from its descriptor. Internal to libcuemu; host code, any thread.
 */
#ifndef CUEMU_FUNCTIONS_H
#define CUEMU_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>

/* cudaFuncAttribute values that a kernel's table entry keeps. */
enum cuemu_function_setting {
  CUEMU_FUNCTION_MAX_DYNAMIC_SHARED = 8, /* MaxDynamicSharedMemorySize */
  CUEMU_FUNCTION_CARVEOUT = 9,           /* PreferredSharedMemoryCarveout */
  CUEMU_FUNCTION_FIRST_CLUSTER = 10,     /* the cluster attributes, */
  CUEMU_FUNCTION_NONPORTABLE_CLUSTER = 14, /* clusters of more than 8 */
  CUEMU_FUNCTION_CLUSTER_SCHEDULING = 15, /* kept and reported, a hint */
  CUEMU_FUNCTION_LAST_CLUSTER = 15       /* the others: accepted, ignored */
};

/* The identity of the kernel a launch runs: the descriptor's address of the
 * kernel, else (a kernel called through a pointer) the pointer that the
 * arguments carry after the parameters (shims' cuemu_kernel_thunks.h). */
const void *cuemu__function_identity(const cuemu_kernel_desc *kernel,
                                     void **args);

/* The registered descriptor of the kernel at `function`, or NULL. */
const cuemu_kernel_desc *cuemu__function_find(const void *function);

/* The kernel whose code a launch of `desc` runs on the emulated device:
 * that of the variant (cuemu_program_register_variant()) whose image the
 * driver's rule picks, else `desc` itself. */
const cuemu_kernel_desc *cuemu__function_code(const cuemu_kernel_desc *desc);

/* The architecture (80) of the further device pass whose image the
 * driver's rule picks for the current device among the program's images
 * (the -arch registered last: cuemu_program_register_target()), else 0
 * (the first pass's, or none known). */
int cuemu__program_pass_arch(void);

/* The address that the host's symbol calls of the variable at `symbol`
 * reach on the current device: the copy of the pass it runs
 * (cuemu_program_register_variable_copies()), else `symbol`. */
void *cuemu__variable_copy(const void *symbol);

/* The device's object of the host object (shadow) `p` of a __device__ or
 * __constant__ variable, or an address in it, at the same offset
 * (cuemu_program_register_variable_shadows()); `p` itself when it is in no
 * registered shadow, or when its variable has no device object. */
void *cuemu__variable_shadow_device(const void *p);

/* The size of the variable whose device object starts at `device`, as the
 * record of its shadow has it (its own unit's definition), or 0 where no
 * registered shadow maps to it (cuemu_program_register_variable_shadows()). */
size_t cuemu__variable_size(const void *device);

/* Appends to the array *a of n entries (grown with realloc) the registered
 * shadows of variables that have a device object, as live
 * CUEMU_RT_MEMORY_SYMBOL entries flagged CUEMU__ALLOCATION_SHADOW
 * (core/cuemu_allocations.h); returns the new count (n when *a cannot
 * grow). */
size_t cuemu__variable_shadows_append(cuemu_rt_allocation **a, size_t n);

/* 1 when the emulated device can run the kernel `desc` (its build has a
 * kernel image for the device's compute capability:
 * cuemu_program_register_target()), else 0; *images (when `images` is not
 * NULL) is set to the build's images ("sm_80,compute_80"), or NULL where
 * they are not known (every device runs the kernel). */
int cuemu__function_has_image(const cuemu_kernel_desc *desc,
                              const char **images);
/* 1 when the emulated device runs one of the images `list` names
 * ("sm_80,compute_80": cuemu_program_register_target()) or `list` is NULL,
 * else 0. */
int cuemu__device_runs_images(const char *list);

/* The index of the list among lists[0..n) ("sm_80,compute_80" each: the
 * images of one device pass) that holds the image the driver's rule picks
 * for the emulated device among all of them (the highest cubin that runs,
 * else the PTX of the highest architecture that runs), or -1 when none
 * runs. */
int cuemu__device_pick_list(const char *const *lists, int n);

/* The kernel's dynamic shared-memory limit: 48 KiB unless raised. */
size_t cuemu__function_max_dynamic_shared(const void *function);

/* Sets a cudaFuncAttribute of the kernel at `function` (named `name` in
 * messages). Returns INVALID_VALUE for an attribute or value that CUDA
 * refuses, OUT_OF_MEMORY. */
cuemu_status cuemu__function_set(const void *function, const char *name,
                                 int attribute, int value);

/* Non-zero when the kernel at `function` was compiled without
 * optimization (cuemu_kernel_set_unoptimized). */
int cuemu__function_unoptimized(const void *function);

/* Fills *out with the attributes of the kernel at `function`, whose
 * descriptor is `desc` (NULL when unknown); local_bytes is left 0 (the
 * launch checks use this, and do not need it). */
void cuemu__function_attributes(const void *function,
                                const cuemu_kernel_desc *desc,
                                cuemu_kernel_attributes *out);

/* The kernel's local memory: its function's stack frame as compiled for
 * the CPU (cuemu_frame_size.h), for the attribute queries. */
size_t cuemu__function_local_bytes(const void *function,
                                   const cuemu_kernel_desc *desc);

/* The stack that the code at `function` (a kernel's function or thunk)
 * may take with the functions it calls, read once (cuemu__frame_size_deep)
 * and remembered; 0 for NULL or unknown code. Host code, any thread. */
size_t cuemu__function_frame(const void *function);

/* Non-zero when the kernel at `function` may run clusters larger than
 * the portable size (cudaFuncAttributeNonPortableClusterSizeAllowed). */
int cuemu__function_cluster_nonportable(const void *function);

/* The kernel's cudaFuncAttributeClusterSchedulingPolicyPreference (0, the
 * default, until set): kept for the attribute queries, a hint otherwise. */
int cuemu__function_cluster_scheduling(const void *function);

/* Forgets the settings of the kernels of a module being unloaded. */
void cuemu__function_forget(const cuemu_module_desc *module);

/* Forgets every registered table, variant and kernel setting whose memory
 * lies in [lo, hi): the segments of a shared library being unloaded
 * (cuemu_program_unload()), whose tables the program registered when it
 * was loaded. */
void cuemu__function_forget_range(uintptr_t lo, uintptr_t hi);

/* The same for the kernel template instances' sections and pairs
 * (cuemu_instances.c). */
void cuemu__instances_forget_range(uintptr_t lo, uintptr_t hi);

#endif /* CUEMU_FUNCTIONS_H */
