/*
 * cuemu.h: the public C API of libcuemu, modelled on the CUDA driver API.
 *
 * A module is a shared object built by cuemu-cc --module (or by
 * cuemu_compile_module()). Its kernels are looked up by name, including
 * template instantiations such as "scale<double, 3>", and launched with a
 * 3-D grid, a 3-D block, a dynamic shared-memory size, a stream and an array
 * of pointers to the arguments, as cuLaunchKernel takes them.
 *
 * Every function that can fail returns a cuemu_status (see cuemu_status.h);
 * a detailed message about the last failure of the calling OS thread is
 * available from cuemu_last_message(). Unless noted, functions are for host
 * code and may be called from any OS thread.
 *
 * Names: everything libcuemu exports starts with the one prefix cuemu_
 * followed by a letter (cuemu_<noun>_<verb> for functions, CUEMU_ for
 * macros): this API, the compile cache (cuemu_cache.h), the CUDA runtime API
 * (cuemu_runtime*.h) and the kernel ABI that the shims and generated code
 * call (cuemu_device.h). The only other exported names are fixed by CUDA or
 * by the compilers: the built-in variables threadIdx, blockIdx, blockDim,
 * gridDim and warpSize, and the instrumentation entry points of checked
 * modules (__tsan_*, __ubsan_handle_out_of_bounds*, __wrap_mem*). Names
 * with two underscores (cuemu__) are internal and never exported.
 */
#ifndef CUEMU_H
#define CUEMU_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUEMU_VERSION "0.1.0"

/* CUDA's limits, as on sm_90. */
#define CUEMU_MAX_THREADS_PER_BLOCK 1024u
#define CUEMU_MAX_BLOCK_DIM_X 1024u
#define CUEMU_MAX_BLOCK_DIM_Y 1024u
#define CUEMU_MAX_BLOCK_DIM_Z 64u
#define CUEMU_MAX_GRID_DIM_X 2147483647u
#define CUEMU_MAX_GRID_DIM_Y 65535u
#define CUEMU_MAX_GRID_DIM_Z 65535u
#define CUEMU_DEFAULT_DYNAMIC_SHARED (48u * 1024u)
#define CUEMU_MAX_DYNAMIC_SHARED_OPTIN (227u * 1024u)

typedef struct cuemu_dim3 {
  unsigned x, y, z;
} cuemu_dim3;

typedef struct cuemu_module cuemu_module;
typedef struct cuemu_kernel cuemu_kernel;
/* Streams are opaque; NULL is the default stream. Launches are synchronous
 * for now, so the stream only orders nothing. */
typedef struct cuemu_stream cuemu_stream;

/* One parameter of a kernel, as the C++ compiler saw it. */
typedef struct cuemu_param {
  const char *ctype; /* "float", "const float *", "my_struct", ... */
  size_t size;
  size_t align;
} cuemu_param;

/* ---- Messages ------------------------------------------------------------ */

/* The message of the last failed call made by this OS thread ("" when none).
 * The string stays valid until the next failing call on the same thread. */
const char *cuemu_last_message(void);

/* The context switch compiled into libcuemu (configure --with-context):
 * "asm-x86_64", "asm-aarch64" or "ucontext". For diagnostics and
 * benchmarks. */
const char *cuemu_context_backend(void);

/* ---- Modules and kernels ------------------------------------------------- */

/* Loads the module at `path`. On success *out owns the module until
 * cuemu_module_unload(). Returns MODULE_LOAD, MODULE_VERSION or OUT_OF_MEMORY. */
cuemu_status cuemu_module_load(cuemu_module **__cuemu_out, const char *path);

/* Unloads a module; its kernels become invalid. NULL is accepted. */
cuemu_status cuemu_module_unload(cuemu_module *module);

/* Finds a kernel by name. Whitespace inside template argument lists is not
 * significant: "scale<double,3>" finds "scale<double, 3>". The kernel is
 * owned by its module. Returns KERNEL_NOT_FOUND or INVALID_VALUE. */
cuemu_status cuemu_module_get_kernel(cuemu_module *module, const char *name,
                                     cuemu_kernel **__cuemu_out);

/* Finds the module's global variable `name` (a __device__, __constant__ or
 * __managed__ variable, by its symbol name: a variable inside a namespace
 * has its mangled name), as cuModuleGetGlobal does: *ptr gets its address,
 * which stays valid until the module is unloaded, and *size its size in
 * bytes (either may be NULL). The variables are found in the symbol table
 * of the module's file, which must therefore still be the file that was
 * loaded. Returns INVALID_VALUE when the module has no such variable,
 * IO_ERROR when its file is gone, replaced or unreadable. Host code. */
cuemu_status cuemu_module_get_global(cuemu_module *module, const char *name,
                                     void **ptr, size_t *size);

/* Number of kernels in the module, and the i-th one (NULL if out of range). */
int cuemu_module_kernel_count(const cuemu_module *module);
cuemu_kernel *cuemu_module_kernel_at(const cuemu_module *module, int __cuemu_i);

/* The kernel's name, as looked up. */
const char *cuemu_kernel_name(const cuemu_kernel *kernel);

/* The parameter descriptor: number of parameters and the i-th one (NULL when
 * i is out of range). */
int cuemu_kernel_param_count(const cuemu_kernel *kernel);
const cuemu_param *cuemu_kernel_param(const cuemu_kernel *kernel, int __cuemu_i);

/* Raises the kernel's dynamic shared-memory limit, as
 * cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) does.
 * Returns INVALID_VALUE past CUEMU_MAX_DYNAMIC_SHARED_OPTIN. */
cuemu_status cuemu_kernel_set_max_dynamic_shared(cuemu_kernel *kernel,
                                                 size_t bytes);

/* Sets the kernel's preferred shared-memory carveout, as
 * cudaFuncSetAttribute(cudaFuncAttributePreferredSharedMemoryCarveout)
 * does (it changes nothing else in the emulator). Returns INVALID_VALUE
 * unless percent is -1 or 0 to 100. */
cuemu_status cuemu_kernel_set_carveout(cuemu_kernel *kernel, int percent);

/* A kernel's attributes, as cudaFuncGetAttributes reports them. */
typedef struct cuemu_kernel_attributes {
  unsigned max_threads_per_block; /* the device's, or __launch_bounds__'s */
  size_t static_shared_bytes;     /* static __shared__ memory, when known */
  size_t max_dynamic_shared_bytes;/* 48 KiB unless raised */
  int preferred_carveout;         /* -1 unless set */
  int num_regs;
  size_t const_bytes;
  size_t local_bytes;             /* the kernel function's stack frame */
  int ptx_version, binary_version;/* the device's compute capability * 10 */
} cuemu_kernel_attributes;

/* Fills *out with the kernel's attributes, read from the emulated device's
 * model and the kernel's settings. Returns INVALID_VALUE for NULL. */
cuemu_status cuemu_kernel_get_attributes(const cuemu_kernel *kernel,
                                         cuemu_kernel_attributes *__cuemu_out);

/* The emulated device's value of the cudaDeviceProp field `name` (arrays by
 * element: "maxThreadsDim[2]"), as cudaGetDeviceProperties reports it; the
 * device follows CUEMU_DEVICE and CUEMU_SM_COUNT. Returns INVALID_VALUE for
 * a name the device does not describe. Host code, any thread. */
cuemu_status cuemu_device_get_property(const char *name, long long *value);

/* Launches `kernel` and waits for it. `args` holds `nargs` pointers, each to
 * a value of the corresponding parameter's type, as cuLaunchKernel's
 * kernelParams. `stream` is NULL, or a stream of the runtime API
 * (cudaStreamCreate's; launches run at once whatever the stream). The
 * launch is checked before anything runs: INVALID_GRID_DIM,
 * INVALID_BLOCK_DIM, TOO_MANY_THREADS, LAUNCH_BOUNDS, SHARED_MEMORY_LIMIT,
 * ARGUMENT_COUNT, INVALID_HANDLE (a stream that is not one).
 * A failure while running (DIVERGENT_BARRIER, DEADLOCK, STACK_OVERFLOW,
 * KERNEL_FAULT, ASSERT, TRAP) stops the launch; its message names the kernel,
 * the block and thread, and the source line where known, and is also printed
 * on stderr unless CUEMU_QUIET=1. Launches of this API keep no state between
 * them: a failed launch does not make the next one fail (the sticky error
 * of CUDA belongs to the runtime API of whole programs). Host code only;
 * launches may run concurrently from several OS threads. */
cuemu_status cuemu_kernel_launch(cuemu_kernel *kernel, cuemu_dim3 __cuemu_grid,
                                 cuemu_dim3 __cuemu_block, size_t dynamic_shared,
                                 cuemu_stream *stream, void **args, int nargs);

/* Launches `kernel` cooperatively, as cudaLaunchCooperativeKernel does: all
 * blocks are resident at once (each block runs on its own worker OS
 * thread, whatever CUEMU_WORKERS says), so grid.sync() works. Returns
 * COOPERATIVE_TOO_LARGE when the grid has more blocks than
 * cuemu_kernel_max_cooperative_blocks() allows; otherwise as
 * cuemu_kernel_launch(). Host code. */
cuemu_status cuemu_kernel_launch_cooperative(cuemu_kernel *kernel,
                                             cuemu_dim3 __cuemu_grid,
                                             cuemu_dim3 __cuemu_block,
                                             size_t dynamic_shared,
                                             cuemu_stream *stream,
                                             void **args, int nargs);

/* Checks a launch of `kernel` with `nargs` arguments as
 * cuemu_kernel_launch() or (cooperative set) cuemu_kernel_launch_cooperative()
 * would, without running it: returns the status the launch would be
 * refused with (INVALID_GRID_DIM, TOO_MANY_THREADS, ...), or SUCCESS. For
 * front ends that queue launches and must report a bad configuration at
 * the call (Python's deferred mode). Host code. */
cuemu_status cuemu_kernel_check_launch(cuemu_kernel *kernel, cuemu_dim3 __cuemu_grid,
                                       cuemu_dim3 __cuemu_block, size_t dynamic_shared,
                                       int nargs, int cooperative);

/* How many blocks of this shape can be resident at once on the emulated
 * device: its SM count (CUEMU_SM_COUNT, default 8) times the blocks per SM
 * that its limits allow (2048 threads, 32 blocks and 228 KiB of shared
 * memory per SM, as on sm_90), as the occupancy API reports it. */
cuemu_status cuemu_kernel_max_cooperative_blocks(const cuemu_kernel *kernel,
                                                 cuemu_dim3 __cuemu_block,
                                                 size_t dynamic_shared,
                                                 unsigned *__cuemu_blocks);

/* ---- Checkers -------------------------------------------------------------- */

/* Tells the checkers (docs/checkers.md) that the `size` bytes at `base`, a
 * host buffer passed to kernels, are a device allocation named `name`
 * (copied; may be NULL): accesses past its end are out of bounds, and
 * accesses of different threads to it are checked for races. Registered
 * memory counts as written (initcheck). Returns INVALID_VALUE when the
 * range overlaps a tracked allocation. Host code. */
cuemu_status cuemu_alloc_register(void *base, size_t size, const char *name);

/* cuemu_alloc_register() for a caller that is not C code: reports say the
 * buffer was allocated at the text `__cuemu_where` ("file.py:12", copied;
 * NULL or empty: at the caller's return address, as cuemu_alloc_register). */
cuemu_status cuemu_alloc_register_at(void *base, size_t size, const char *name,
                                     const char *__cuemu_where);

/* Tells memcheck that the `__cuemu_map_size` bytes at `__cuemu_map_base`,
 * which hold the buffer registered at `base`, hold nothing else (the rest
 * of its pages, guard pages its owner made around it): an access there
 * outside the buffer is out of its bounds however far from it, as for
 * cudaMalloc's memory (else only the 256 bytes next to a buffer are; past
 * them lies host memory the checkers do not know). Forgotten with the
 * registration. Returns INVALID_VALUE when `base` is not registered or the
 * range does not hold the buffer. Host code. */
cuemu_status cuemu_alloc_register_mapping(void *base,
                                          const void *__cuemu_map_base,
                                          size_t __cuemu_map_size);

/* Forgets a buffer given to cuemu_alloc_register(). Returns INVALID_VALUE
 * when `base` was not registered. */
cuemu_status cuemu_alloc_unregister(void *base);

/* The reports that racecheck and initcheck (and schedule perturbation)
 * made in the launches of this process's CUDA runtime API (a whole
 * program's kernels), after which those launches went on and succeeded,
 * and the leaks memcheck reported; `*__cuemu_last` (unless NULL) gets
 * the last report printed ("" when none; valid until the next report).
 * While the count is not zero, a program that exits with status 0 exits
 * with CUEMU_CHECK_EXIT_STATUS (1 when unset) instead. Launches of the C
 * API (cuemu_kernel_launch) return CHECK_REPORT instead of counting here.
 * Host code, any thread. */
unsigned long long cuemu_check_reports(const char **__cuemu_last);

/* Forgets the reports counted so far (a test that expects them). */
void cuemu_check_reports_clear(void);

/* A report of a hazard found outside a kernel by the host code that
 * stands in for one (the fake CuPy's arithmetic, which runs in NumPy,
 * finding a write through an output whose elements overlap, which CuPy's
 * element-wise kernel makes from several threads): counted with the
 * launches' reports (cuemu_check_reports(), the summary and exit status at
 * exit) and printed as they are, once per `__cuemu_where` (the user's
 * "file:line"). Host code, any thread. */
void cuemu_check_report_host(const char *__cuemu_where,
                             const char *__cuemu_text);

/* Whether racecheck's and initcheck's reports (and schedule perturbation's)
 * end the launches of the C API (cuemu_kernel_launch,
 * cuemu_kernel_launch_cooperative) that the calling thread makes with
 * CHECK_REPORT once their blocks ran (`fail` 1, the default: the parity
 * runner and the Python helpers' check= fail on them), or let them succeed
 * and count them as a whole program's launches do (`fail` 0:
 * cuemu_check_reports(), and the summary and exit status at exit; the fake
 * CuPy under CUEMU_FAKE_CUPY_CHECK, as compute-sanitizer lets the kernels of
 * a Python process run on). memcheck's and synccheck's reports end the
 * launch either way. Returns the previous setting. Host code. */
int cuemu_check_reports_fail(int fail);

/* ---- Compiling ----------------------------------------------------------- */

/* cuemu_compile_options.debug for nvcc's -G: device code unoptimised. */
#define CUEMU_DEBUG_DEVICE 2
/* cuemu_compile_options.debug for nvcc's -g: the host pass as with 1, the
 * device passes optimised as without debug. */
#define CUEMU_DEBUG_HOST 3

/* Options for cuemu_compile(); zero-initialise and fill what you need. */
typedef struct cuemu_compile_options {
  int module;               /* 1: a loadable module; 0: a whole program */
  int debug;                /* 1: -g -O0, where argv's -O does not say
                             * otherwise; CUEMU_DEBUG_DEVICE (nvcc's -G):
                             * the same, and device code at -O0 whatever
                             * argv's -O; CUEMU_DEBUG_HOST (nvcc's -g): 1
                             * for the host pass only; 0: -O2 */
  const char *const *argv;  /* extra options passed through: -I, -D, -std */
  int argc;
  const char *const *name_expressions; /* template instantiations to export */
  int name_expression_count;
  const char *cxx;          /* compiler; NULL: $CXX, then "c++" */
  int no_cache;             /* 1: bypass the compile cache */
  const char *checks;       /* checkers to build in: a comma-separated list
                             * of "sync", "race", "mem", "init" or "all";
                             * NULL or "": none (docs/checkers.md) */
  int object;               /* 1: a relocatable object (nvcc -c) for a later
                             * link with cuemu-cc, instead of a program */
  int arch;                 /* __CUDA_ARCH__'s value; 0: 900 (sm_90, the
                             * emulated device) */
  int rdc;                  /* 1: relocatable device code (nvcc -rdc=true):
                             * __device__ functions are linked across files */
  int runtime_header_at;    /* where among argv cuemu's cuda_runtime.h is
                             * force-included: before argv[runtime_header_at];
                             * 0: before all of them (so that headers given
                             * with -include may use CUDA's types, as NVRTC's
                             * --pre-include); argc or more: after all */
  int nvcc_module;          /* with module: 1 for nvcc's -ptx, -cubin or
                             * -fatbin of a .cu file, whose fixed-width types
                             * are the host's (uint64_t is unsigned long), as
                             * with nvcc; 0 for an NVRTC source, whose types
                             * are NVRTC's (uint64_t is unsigned long long) */
  int fmad;                 /* 1: device code contracts a*b+c into fused
                             * multiply-adds, as a GPU does (nvcc -fmad=true),
                             * with the CPU's FMA instructions where the
                             * compiling CPU has them (a program then refuses
                             * to run on a CPU without them); 0: each
                             * operation rounds (nvcc -fmad=false; the default:
                             * docs/nvcc-checks.md) */
  int cuemu_fast_math;      /* 1: nvcc's --use_fast_math: device code's
                             * sinf, cosf, tanf, sincosf, expf, exp10f,
                             * logf, log2f, log10f and powf are the fast
                             * intrinsics (__sinf, ...), as nvcc makes them
                             * (docs/device-math.md); 0: the accurate ones */
  int arch_suffix;          /* arch's suffix: 'a' (sm_90a: the device pass
                             * also has __CUDA_ARCH_SPECIFIC__,
                             * __CUDA_ARCH_FAMILY_SPECIFIC__ and
                             * __CUDA_ARCH_FEAT_SM90_ALL, as with nvcc),
                             * 'f' (sm_100f: __CUDA_ARCH_FAMILY_SPECIFIC__),
                             * or 0 */
  const char *cuemu_arch_images; /* the images of the build in nvcc's names,
                             * comma-separated ("sm_80,compute_80,sm_100":
                             * a cubin, PTX), which decide the devices that
                             * run its kernels as a GPU's driver does; NULL:
                             * every device runs them */
  const char *cuemu_arch_passes; /* further device passes, one per virtual
                             * architecture below `arch` ("800:sm_80,
                             * compute_80;" each with the images made from
                             * it), whose code a device runs when the
                             * driver's rule picks one of those images; NULL:
                             * one device pass */
  const char *cuemu_keep_dir;     /* nvcc --keep: the folder where each pass's
                             * preprocessed and translated unit is kept,
                             * under nvcc's names (NAME.cpp1.ii and
                             * NAME.cudafe1.gpu of the device pass,
                             * NAME.cpp4.ii and NAME.cudafe1.cpp of the
                             * host pass); NULL: none is kept */
  int cuemu_warn_default_stream_launch; /* nvcc's -Wdefault-stream-launch: 1 warns
                             * at each launch of the user's code without a
                             * stream argument, 2 refuses it (nvcc's
                             * -Werror=default-stream-launch); 0: neither */
  int cuemu_warn_missing_launch_bounds; /* -Wmissing-launch-bounds: each kernel
                             * the user's code defines without
                             * __launch_bounds__, the same way */
  int cuemu_host_level;     /* 1: the last -O of argv is nvcc's -O, the host
                             * code's level alone: the device passes stay
                             * optimised (-O2), as nvcc's device code does
                             * unless -G; 0: argv's -O reaches every pass
                             * (-Xcompiler -O0 builds CCCL faster) */
  int cuemu_warn_redeclared; /* nvcc's warning #20037-D (a function declared
                             * __device__ and defined without an execution
                             * space): 0 warns unless argv holds -w, -1
                             * gives nothing (nvcc's -diag-suppress 20037),
                             * 2 refuses it (-Werror all-warnings), 3
                             * refuses it without the number, as nvcc's
                             * -diag-error 20037 */
  int cuemu_warn_redeclared_device; /* nvcc's warning #20039-D (a function
                             * declared without an execution space and
                             * redeclared __device__), as
                             * cuemu_warn_redeclared (-diag-suppress 20039) */
  int cuemu_warn_redeclared_host_device; /* #20040-D (redeclared __host__
                             * __device__), the same way */
  int cuemu_warn_device_redeclared_host_device; /* #20036-D (a function
                             * declared __device__ and redeclared __host__
                             * __device__), the same way */
  int cuemu_warn_main_bare_return; /* #117-D (a `return;` in main, which
                             * returns 0 there), the same way */
  int cuemu_warn_host_read; /* #20091-D (host code that reads a __device__
                             * or __constant__ variable), the same way */
  int cuemu_warn_host_write; /* #20092-D (... that writes one), the same way */
  int cuemu_warn_defaulted_space; /* #20012-D (__host__ or __device__ on a
                             * function explicitly defaulted on its first
                             * declaration), the same way */
  const char *cuemu_nvcc_level; /* nvcc's own -O (the last, -O1 and up),
                             * or NULL (none, or -O0, which nvcc drops):
                             * the preprocessing puts it after argv's
                             * options, as nvcc puts it after -Xcompiler's,
                             * so that the code sees nvcc's macros; the
                             * compiles keep argv's order */
  int cuemu_driver_as_nvcc; /* 1: a program links the driver library
                             * (libcuda.so.1, whose symbols cuda.h's calls
                             * of the driver API are) only where argv names
                             * it (-lcuda), as nvcc links (cuemu-nvcc); 0: it
                             * is linked wherever the program calls the
                             * driver API (cuemu-run) */
} cuemu_compile_options;

/* Compiles the CUDA source file `source` into `output` (a module or a
 * program). Compiler diagnostics go to stderr and point at the .cu file.
 * Returns COMPILE, IO_ERROR or CACHE. *cache_hit (if not NULL) tells whether
 * the result came from the cache. */
cuemu_status cuemu_compile(const char *source, const char *__cuemu_output,
                           const cuemu_compile_options *options,
                           int *cache_hit);

/* Compiles as the command `cuemu-cc ARGV...` does, taking its words rather
 * than a cuemu_compile_options, so that a binding from another language
 * (the Python package) or a wrapper needs no copy of that structure:
 *
 *   FILE.cu             the source (exactly one)
 *   -o FILE             the output (default: FILE.so for a module, a.out)
 *   --module            a loadable module (default: a whole program)
 *   -g                  debug build (-g -O0)
 *   --name-expr EXPR    a template instantiation to export (repeatable)
 *   --check=LIST        checkers to build in (see cuemu_compile_options)
 *   --cxx=COMPILER      the C++ compiler (default: $CXX, then c++)
 *   --no-cache          bypass the compile cache
 *   -v                  say on stderr whether the cache was hit
 *   anything else starting with '-'
 *                       passed to the C++ compiler (-I, -D, -U, -include
 *                       and -isystem may take their value as the next word)
 *
 * Returns INVALID_VALUE for a malformed command (no source, two sources, an
 * option without its value), otherwise as cuemu_compile(). `cache_hit` may
 * be NULL. */
cuemu_status cuemu_compile_command(int argc, const char *const *argv,
                                   int *cache_hit);

/* The exit status of the program that the calling OS thread's last
 * cuemu_compile_command() ran for nvcc's -run (128 plus the signal that
 * killed it), or 0 when that call ran none. cuemu_compile_command()
 * returns COMPILE when that status is not 0; nvcc, and the cuemu-nvcc
 * command, exit with the status itself. Host code. */
int cuemu_compile_run_status(void);

/* With a value not 0, the calling OS thread's later cuemu_compile_command()
 * calls read -g as nvcc does, debug information for the host code only
 * (CUEMU_DEBUG_HOST: device code stays optimised); with 0 (the default, as
 * cuemu-cc and cuemu-run have it), -g debugs every pass at -O0. The
 * command called by a name holding "nvcc" (cuemu-nvcc, the toolkit's nvcc)
 * turns it on. Host code. */
void cuemu_compile_nvcc_debug(int);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_H */
