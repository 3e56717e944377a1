/*
 * cuemu_resource_usage.c: the lines that nvcc's ptxas prints for each
 * kernel with -Xptxas -v and --resource-usage, read from the module that
 * cuemu-nvcc compiles of the unit (see cuemu_driver.h).
 *
 * ptxas compiles every kernel that the unit's device code holds: the
 * plain kernels, and each instance of a kernel template that the unit
 * instantiates (a launch, an explicit instantiation), all under their
 * mangled names ('_Z5plainPi', '_Z5scaleIfLi32EEvPT_S0_'). The module's
 * table has the first; the second are the records that the module keeps
 * for this reading (CUEMU_MODULE_INSTANCE under CUEMU_RECORD_INSTANCES,
 * shims/cuda_builtins/cuemu_qualifiers.h), found through the module's
 * cuemu_module_instances(). A kernel's name is its symbol's, from the
 * module's symbol table (its kernels are hidden).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_instances.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_elf_symbol.h"
#include "device/cuemu_module_binding.h"
#include "device/cuemu_module_symbols.h"
#include "cuemu_driver.h"

/* CUDA's CUfunction_attribute values that the lines read. */
enum {
  FUNC_SHARED_SIZE_BYTES = 1,
  FUNC_CONST_SIZE_BYTES = 2,
  FUNC_LOCAL_SIZE_BYTES = 3,
  FUNC_NUM_REGS = 4
};

typedef struct usage {
  int shared, constant, local, regs;
} usage;

/* ptxas's lines for the kernel `name` compiled for `image`. */
static void print_kernel(FILE *out, const char *symbol, const char *image,
                         const usage *u) {
  char entry[4096];
  const char *name = cuemu__ptxas_entry_name(symbol, entry, sizeof entry);
  fprintf(out, "ptxas info    : Compiling entry function '%s' for '%s'\n"
          "ptxas info    : Function properties for %s\n"
          "    %d bytes stack frame, 0 bytes spill stores, "
          "0 bytes spill loads\n"
          "ptxas info    : Used %d registers",
          name, image, name, u->local, u->regs);
  if (u->shared)
    fprintf(out, ", %d bytes smem", u->shared);
  if (u->constant)
    fprintf(out, ", %d bytes cmem[0]", u->constant);
  fputc('\n', out);
}

/* The kernels of the module's table; their addresses in *seen (*nseen of
 * them), so that the records of the same kernels are not printed again. */
static int print_table(FILE *out, void *handle, void *mod, const char *image,
                       const void ***seen, unsigned *nseen) {
  unsigned count = 0;
  int e = cuemu_drv_module_get_function_count(&count, mod);
  void **functions = count ? calloc(count, sizeof *functions) : NULL;
  *seen = count ? calloc(count, sizeof **seen) : NULL;
  if (!e && count && (!functions || !*seen))
    e = -1;
  if (!e && count)
    e = cuemu_drv_module_enumerate_functions(functions, count, mod);
  for (unsigned i = 0; !e && i < count; ++i) {
    const char *name = "?";
    usage u = {0, 0, 0, 0};
    cuemu_drv_func_get_name(&name, functions[i]);
    cuemu_drv_func_get_attribute(&u.shared, FUNC_SHARED_SIZE_BYTES,
                                 functions[i]);
    cuemu_drv_func_get_attribute(&u.constant, FUNC_CONST_SIZE_BYTES,
                                 functions[i]);
    cuemu_drv_func_get_attribute(&u.local, FUNC_LOCAL_SIZE_BYTES,
                                 functions[i]);
    cuemu_drv_func_get_attribute(&u.regs, FUNC_NUM_REGS, functions[i]);
    const void *address = cuemu__kernel_desc(functions[i])->function;
    char symbol[4096];
    if (handle && address &&
        cuemu__elf_function_name(handle, address, symbol, sizeof symbol) ==
            CUEMU_SUCCESS)
      name = symbol;
    (*seen)[(*nseen)++] = address;
    print_kernel(out, name, image, &u);
  }
  free(functions);
  return e;
}

/* The kernel template instances that the module recorded. */
static int print_instances(FILE *out, void *handle, const char *image,
                           const void **seen, unsigned nseen) {
  typedef const cuemu_instance_record *(*records_fn)(
      const cuemu_instance_record **end);
  records_fn records =
      handle ? (records_fn)dlsym(handle, "cuemu_module_instances") : NULL;
  if (!records)
    return 0;
  const cuemu_instance_record *end = NULL;
  const cuemu_instance_record *begin = records(&end);
  for (const cuemu_instance_record *r = begin; r && r < end; ++r) {
    int known = r->pass != 1 || !r->kernel;
    for (unsigned i = 0; !known && i < nseen; ++i)
      known = seen[i] == r->kernel;
    for (const cuemu_instance_record *q = begin; !known && q < r; ++q)
      known = q->pass == 1 && q->kernel == r->kernel;
    if (known)
      continue;
    /* Registers the instance with the program, whose runtime then
     * answers cudaFuncGetAttributes for it. */
    r->record(r->file, r->line);
    cuemu_rt_func_attributes a;
    memset(&a, 0, sizeof a);
    int e = cuemu_rt_func_get_attributes(&a, r->kernel, 1);
    if (e)
      return e;
    usage u = {(int)a.shared_size_bytes, (int)a.const_size_bytes,
               (int)a.local_size_bytes, a.num_regs};
    print_kernel(out, r->symbol, image, &u);
  }
  return 0;
}

/* ptxas's first line, as nvcc 13's prints it: the unit's global memory
 * (its __device__ and __managed__ variables, packed); for an architecture
 * before sm_90, also its constant bank 3 (its __constant__ variables, in
 * their order in a whole program, packed in relocatable device code) when
 * it has any, and in a whole program bank 4 (the 8-byte address of each
 * global variable) when it has any. From sm_90 on, ptxas prints the global
 * memory alone. From the module's records. */
static void print_spaces(FILE *out, const char *module, const char *image,
                         int relocatable) {
  cuemu_space_layout global, constant;
  if (cuemu__elf_space_layout(module, "cuemu_global_bytes", &global) != CUEMU_SUCCESS ||
      cuemu__elf_space_layout(module, "cuemu_constant_bytes", &constant) != CUEMU_SUCCESS)
    return;
  fprintf(out, "ptxas info    : %llu bytes gmem", global.packed);
  if (atoi(image + 3) < 90) {
    unsigned long long bank3 = relocatable ? constant.packed : constant.in_order;
    if (bank3)
      fprintf(out, ", %llu bytes cmem[3]", bank3);
    if (!relocatable && global.count)
      fprintf(out, ", %llu bytes cmem[4]", 8 * global.count);
  }
  fputc('\n', out);
}

int cuemu__resource_usage_print(const char *module, const char *image,
                                int relocatable) {
  int keep = dup(2), null = open("/dev/null", O_WRONLY);
  if (keep >= 0 && null >= 0)
    dup2(null, 2);
  FILE *out = keep >= 0 ? fdopen(keep, "w") : NULL;
  if (!out)
    return -1;
  /* The device is one of the architecture compiled for, as ptxas's: an
   * sm_80 module runs on no 9.0 device (CUDA_ERROR_NO_BINARY_FOR_GPU). */
  char device[32];
  snprintf(device, sizeof device, "sm=%d", atoi(image + 3));
  setenv("CUEMU_DEVICE", device, 1);
  cuemu__module_bind_lazily(1);
  void *ctx = NULL, *mod = NULL;
  int e = cuemu_drv_init(0);
  if (!e)
    e = cuemu_drv_primary_ctx_retain(&ctx, 0);
  if (!e)
    e = cuemu_drv_ctx_set_current(ctx);
  if (!e)
    e = cuemu_drv_module_load(&mod, module);
  /* The module's own handle, for its symbol table and its records. */
  void *handle = e ? NULL : dlopen(module, RTLD_LAZY | RTLD_NOLOAD);
  const void **seen = NULL;
  unsigned nseen = 0;
  if (!e)
    print_spaces(out, module, image, relocatable);
  if (!e)
    e = print_table(out, handle, mod, image, &seen, &nseen);
  if (!e)
    e = print_instances(out, handle, image, seen, nseen);
  free(seen);
  fflush(out);
  return e < 0 || e > 255 ? 255 : e;
}
