/*
 * cuemu_device.h: the interface between libcuemu and kernel code.
 *
 * The shims (shims/cuda_builtins/) and the code that cuemu-cc generates use
 * only what is declared here. Functions marked "kernel code" may be called
 * only from a thread of a running kernel; they report misuse as a launch
 * error of the calling kernel.
 */
#ifndef CUEMU_DEVICE_H
#define CUEMU_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the reference returned by a device function's `return;` without a
 * value points (nvcc's warning #117-D; the result is undefined on a GPU):
 * a non-canonical x86-64 address, which no memory has, so that a read or a
 * write through it faults, and the fault's report says what it is
 * (shims/cuda_builtins/cuemu_unset_result.h, core/cuemu_fault.c). The
 * reference's object may be a member or an element: its first MiB. */
#define CUEMU_UNSET_RESULT_ADDRESS 0xdead000000000000ull
#define CUEMU_UNSET_RESULT_SIZE 0x100000ull

/* Version of the module ABI below; bumped whenever it changes. */
#define CUEMU_MODULE_ABI 2

#if defined(__GNUC__)
#define CUEMU_TLS_IE __attribute__((tls_model("initial-exec")))
#define CUEMU_NORETURN __attribute__((noreturn))
/* Each call site keeps its own call (clang++ would otherwise merge the
 * identical calls of a function that does not return into one, whose
 * return address then names one line for all; g++ is given
 * -fno-crossjumping -fno-tree-tail-merge by cuemu-cc instead). */
#if defined(__has_attribute)
#if __has_attribute(__nomerge__)
#define CUEMU_NOMERGE __attribute__((__nomerge__))
#endif
#endif
#ifndef CUEMU_NOMERGE
#define CUEMU_NOMERGE
#endif
/* A runtime or driver API function of the shims whose libcuemu call
 * records its caller's return address (an allocation's or a free's site,
 * which memcheck's reports name): always inlined, so that the address is
 * in the user's code, and names the user's line, at every -O level. The
 * host pass compiles at the user's -O level, as nvcc's host compile does,
 * and -O0 inlines no other function. */
#define CUEMU_AT_CALLER __attribute__((__always_inline__))
#else
#define CUEMU_TLS_IE
#define CUEMU_NORETURN
#define CUEMU_NOMERGE
#define CUEMU_AT_CALLER
#endif

/* ---- Built-in variables --------------------------------------------------
 *
 * threadIdx, blockIdx, blockDim and gridDim are real thread-local variables of
 * libcuemu, updated by the scheduler on every switch, so that gdb can read
 * them. The shims declare them with CUDA's types (uint3, dim3), which have
 * this layout. */
typedef struct cuemu_uint3 {
  unsigned int x, y, z;
} cuemu_uint3;

#ifndef __cplusplus
extern __thread cuemu_uint3 threadIdx CUEMU_TLS_IE;
extern __thread cuemu_uint3 blockIdx CUEMU_TLS_IE;
extern __thread cuemu_uint3 blockDim CUEMU_TLS_IE;
extern __thread cuemu_uint3 gridDim CUEMU_TLS_IE;
extern const int warpSize;
#endif

/* The dynamic shared-memory buffer of the running block (all extern
 * __shared__ arrays alias it). */
extern __thread void *cuemu_dynamic_shared CUEMU_TLS_IE;

/* Non-zero while the current thread has ever been suspended; a thunk that
 * sees it after the kernel returns calls cuemu_thread_finish(). */
extern __thread int cuemu_thread_detached CUEMU_TLS_IE;

/* The carry flag (CC.CF) of inline PTX between asm statements: a statement
 * whose add.cc, sub.cc, mad.cc, addc.cc, subc.cc or madc.cc leaves it
 * stores it here, and one whose addc, subc or madc reads it before setting
 * it loads it, so that a chain of one-instruction statements (the style of
 * most GPU big-number code) carries as nvcc's code does. It belongs to the
 * OS thread: an emulated thread's carry is lost at a rendezvous where
 * another thread runs (see docs/ptx.md). */
extern __thread unsigned long long cuemu_ptx_carry CUEMU_TLS_IE;

/* ---- Modules ------------------------------------------------------------- */

/* Runs the threads [start, start + count) of the current block, in linear
 * order, until one of them is suspended. Generated per kernel. `args` holds
 * one pointer per parameter, as in cuemu_kernel_launch(); a kernel launched
 * through a function pointer gets the pointer in args[nparams]. */
typedef void (*cuemu_thunk_fn)(void **args, unsigned start, unsigned count);

typedef struct cuemu_param_desc {
  const char *ctype;
  size_t size;
  size_t align;
} cuemu_param_desc;

typedef struct cuemu_kernel_desc {
  const char *name;       /* "saxpy", "ns::scale<double, 3>" */
  cuemu_thunk_fn thunk;
  const void *function;   /* the kernel's address, for launches by pointer */
  int param_count;
  const cuemu_param_desc *params;
  const char *file;       /* where the kernel is defined */
  int line;
  unsigned max_threads;   /* __launch_bounds__'s first value; 0: none */
  unsigned min_blocks;    /* __launch_bounds__'s second value; 0: none */
  size_t static_shared;   /* bytes of static __shared__ memory, when known */
} cuemu_kernel_desc;

typedef struct cuemu_module_desc {
  unsigned abi;           /* CUEMU_MODULE_ABI */
  int kernel_count;
  const cuemu_kernel_desc *kernels;
} cuemu_module_desc;

/* Every module exports `const cuemu_module_desc *cuemu_module_describe(void)`. */
typedef const cuemu_module_desc *(*cuemu_module_describe_fn)(void);

/* Registers the kernels of a whole program (called from a static
 * initialiser), so that launches by pointer find their thunks. Host code. */
void cuemu_program_register(const cuemu_module_desc *desc);

/* cuemu_program_register(), for kernels built for compute capability
 * `arch` * 10 + minor (nvcc's -arch: 80 for sm_80), which
 * cudaFuncGetAttributes reports as their ptxVersion and binaryVersion (the
 * generated kernel table of a unit calls it). Host code. */
void cuemu_program_register_arch(const cuemu_module_desc *desc, int arch);

/* cuemu_program_register_arch(), with the images of the build, which
 * decide whether the device has a kernel image to run: `images` names them
 * as nvcc does, comma-separated ("sm_80,compute_80,sm_100": a cubin, PTX;
 * copied), NULL where they are not known (every device runs the kernels).
 * A launch on a device that runs none of them fails with
 * cudaErrorNoKernelImageForDevice, as on a GPU: a cubin runs on its major
 * version at its minor one or higher, PTX on any device no older, an 'a'
 * image (sm_90a) on its compute capability only, an 'f' one (sm_100f) on
 * its family. Host code. */
void cuemu_program_register_target(const cuemu_module_desc *desc, int arch,
                                   const char *__cuemu_images);

/* Registers `variant`, the kernel table of a further device pass of the
 * unit whose first pass registered `first` (one pass per virtual
 * architecture of the build, as nvcc compiles them), built for `arch`
 * (80) with the images `images` ("sm_80,compute_80"; copied). A launch of
 * one of first's kernels runs the variant's kernel of the same name when
 * the driver's rule picks one of its images for the emulated device (a
 * cubin of the device's major version at the highest minor one no higher,
 * else the PTX of the highest architecture no newer); the kernel keeps
 * first's identity (attributes, registration). Host code. */
void cuemu_program_register_variant(const cuemu_module_desc *__cuemu_first,
                                    const cuemu_module_desc *__cuemu_variant,
                                    int arch, const char *__cuemu_images);

/* Registers `variant`, a further device pass's instance of a kernel
 * template (built for `arch`, 80), as a variant of the first pass's
 * instance `first`: a launch of `first` (or of a descriptor with its code)
 * runs the variant's code when the driver's rule picks an image of that
 * pass (cuemu_program_register_variant()). Host code. */
void cuemu_program_register_instance_variant(
    const cuemu_kernel_desc *__cuemu_first,
    const cuemu_kernel_desc *__cuemu_variant, int arch);

/* One entry of a program's section `cuemu_variable_copies`
 * (emulator/compile/cuemu_variable_copy_records.c writes them): a further device
 * pass's own copy of a __device__ or __constant__ variable whose
 * initializer holds device code's addresses, `size` bytes at `copy`, of the
 * first pass's object `first` (NULL: none), for the pass built for `arch`
 * (80). */
typedef struct cuemu_variable_copy {
  const void *first;
  void *copy;
  unsigned long long size;
  long long arch;
} cuemu_variable_copy;

/* Registers the copies of the records [begin, end) (one program's or
 * shared library's section; once for each `begin`): the host's symbol
 * calls (cudaMemcpyToSymbol, cudaMemcpyFromSymbol, cudaGetSymbolAddress)
 * of `first` reach the copy of the pass whose image the driver's rule
 * picks for the current device (cuemu_program_register_variant()), as on
 * a GPU each device's symbol is its own cubin's. Host code. */
void cuemu_program_register_variable_copies(
    const cuemu_variable_copy *__cuemu_begin,
    const cuemu_variable_copy *__cuemu_end);

/* One entry of a program's section `cuemu_variable_shadows`
 * (emulator/compile/cuemu_elf_instances.c writes them): the host pass's own
 * object (`host`, `size` bytes) of a __device__ or __constant__ variable,
 * which host code names, as nvcc's host code has a shadow of each device
 * variable, and the device pass's object `device` (NULL: none). */
typedef struct cuemu_variable_shadow {
  const void *host;
  void *device;
  unsigned long long size;
} cuemu_variable_shadow;

/* Registers the shadows of the records [begin, end) (one program's or
 * shared library's section; once for each `begin`): the host's symbol calls
 * (cudaMemcpyToSymbol, cudaMemcpyFromSymbol, cudaGetSymbolAddress,
 * cudaGetSymbolSize, the graphs' symbol copies) and the notes of cuemu-cc
 * (cuemu_constant_register(), cuemu_device_variable_register()) given a
 * shadow reach its device object, as nvcc's registration
 * (__cudaRegisterVar) maps a shadow to its device variable. Called before
 * the program's other static initializers. Host code. */
void cuemu_program_register_variable_shadows(
    const cuemu_variable_shadow *__cuemu_begin,
    const cuemu_variable_shadow *__cuemu_end);

/* Forgets the records registered with `begin`
 * (cuemu_program_register_variable_shadows()), when the shared library
 * that holds them is unloaded. Host code. */
void cuemu_program_unregister_variable_shadows(
    const cuemu_variable_shadow *__cuemu_begin);

/* Forgets the kernel tables, template instances and kernel settings that
 * the shared library holding `address` registered, when it is unloaded
 * (nothing for the program itself, whose tables last to its end). Called
 * from a destructor of each unit's host pass. Host code. */
void cuemu_program_unload(const void *__cuemu_address);

/* The device's object of the variable whose host object (shadow), or an
 * address in it, is `variable` (cuemu_program_register_variable_shadows()),
 * else `variable`: what cuemu-cc's notes of __constant__ and __device__
 * variables register. Host code. */
const void *cuemu_variable_device_address(const void *variable);

/* Launches a kernel of the program: what `kernel<<<grid, block, shmem,
 * stream>>>(args)` becomes. The launch goes through the one launch path of
 * libcuemu (the same checks as cudaLaunchKernel, including the sticky error
 * of the runtime API); returns its status. Host code. */
int cuemu_program_launch(const cuemu_kernel_desc *kernel, cuemu_uint3 __cuemu_grid,
                         cuemu_uint3 __cuemu_block, size_t dynamic_shared,
                         void *stream, void **args);

/* What each object of cuemu-nvcc's passes refers to first (a call that is
 * never made): an object linked without libcuemu (by the host compiler
 * with NVIDIA's libcudart, `g++ *.o -L/usr/local/cuda/lib64 -lcudart`)
 * fails, and the linker's first "undefined reference" names this function,
 * which says what to do (the README: link with cuemu-nvcc, or by the host
 * compiler with -L<libdir>/cuemu-toolkit/lib64 -lcudart). It does nothing. */
void cuemu_objects_need_libcuemu_link_with_cuemu_nvcc_or_the_cuemu_toolkit_lib64(
    void);

/* What cuemu-cc's note after a namespace-scope definition of __device__
 * variables calls (CUEMU_DEVICE_NOTE, cuemu_qualifiers.h) when the program
 * or module is loaded, and when it is unloaded: registers the `size` bytes
 * of the variable `name` at `p`, defined at `file`:`line` (strings that
 * live as long as the registration; returns 1, or 0 when memory runs out),
 * so that schedule perturbation saves, restores and compares it as it does
 * tracked allocations, and racecheck watches it and names it in reports
 * (docs/checkers.md); forgets it. The form without a name is that of
 * objects that earlier versions of cuemu-cc compiled. Host code. */
int cuemu_device_variable_register_named(const void *p, size_t size,
                                         const char *name, const char *file,
                                         int line);
int cuemu_device_variable_register(const void *p, size_t size);
void cuemu_device_variable_unregister(const void *p);

/* Finds the registered kernel whose address is `function` (NULL if none). */
const cuemu_kernel_desc *cuemu_program_find(const void *function);

/* ---- Scheduling (kernel code) -------------------------------------------- */

/* Kinds of rendezvous. */
enum cuemu_sync_kind {
  CUEMU_SYNC_BARRIER = 0,   /* __syncthreads and its _count/_and/_or forms */
  CUEMU_SYNC_YIELD = 1,     /* a scheduling point that waits for nothing */
  CUEMU_SYNC_WARP = 2,      /* a warp collective (cuemu_warp_collective) */
  CUEMU_SYNC_ACTIVE = 3,    /* __activemask: waits for the warp to settle */
  CUEMU_SYNC_GROUP = 4,     /* a barrier of a range of threads (wide tiles) */
  CUEMU_SYNC_GRID = 5,      /* grid.sync() of a cooperative launch */
  CUEMU_SYNC_STEP = 6       /* a volatile access in lockstep with the warp
                               (cuemu_warp_step.h) */
};

/* The warp collectives: what cuemu_warp_collective() computes once every
 * lane named in the mask has arrived at the same operation with the same
 * mask. `value` is each lane's operand (up to 64 bits; for votes, its
 * predicate), `arg` the operation's lane argument, `width` its segment
 * width (a power of two from 1 to 32, shuffles only). */
enum cuemu_warp_op {
  CUEMU_WARP_SYNC = 0,      /* __syncwarp: returns 0 */
  CUEMU_WARP_SHFL_IDX,      /* value of lane arg (within the segment) */
  CUEMU_WARP_SHFL_UP,       /* value of lane - arg, own value below it */
  CUEMU_WARP_SHFL_DOWN,     /* value of lane + arg, own value past it */
  CUEMU_WARP_SHFL_XOR,      /* value of lane ^ arg, own value past it */
  CUEMU_WARP_BALLOT,        /* mask of the lanes whose value != 0 */
  CUEMU_WARP_ALL,           /* 1 if every lane's value != 0 */
  CUEMU_WARP_ANY,           /* 1 if some lane's value != 0 */
  CUEMU_WARP_UNI,           /* 1 if every lane's value != 0 or none's is */
  CUEMU_WARP_MATCH_ANY,     /* mask of the lanes whose value equals mine */
  CUEMU_WARP_MATCH_ALL,     /* the mask if all values are equal, else 0 */
  CUEMU_WARP_REDUCE_ADD,    /* 32-bit sum (wrapping) */
  CUEMU_WARP_REDUCE_MIN_S,  /* minimum, values as int */
  CUEMU_WARP_REDUCE_MAX_S,  /* maximum, values as int */
  CUEMU_WARP_REDUCE_MIN_U,  /* minimum, values as unsigned */
  CUEMU_WARP_REDUCE_MAX_U,  /* maximum, values as unsigned */
  CUEMU_WARP_REDUCE_AND,
  CUEMU_WARP_REDUCE_OR,
  CUEMU_WARP_REDUCE_XOR,
  CUEMU_WARP_OP_COUNT_
};

/* What a block barrier returns (the `op` of cuemu_block_barrier()). */
enum cuemu_barrier_op {
  CUEMU_BARRIER_PLAIN = 0, /* __syncthreads: returns 0 */
  CUEMU_BARRIER_COUNT = 1, /* __syncthreads_count: threads with predicate != 0 */
  CUEMU_BARRIER_AND = 2,   /* __syncthreads_and: 1 if every arriving thread's */
  CUEMU_BARRIER_OR = 3,    /* __syncthreads_or: 1 if any arriving thread's */
  CUEMU_BARRIER_GRID = 4,  /* grid.sync(): the block's part of it */
  CUEMU_BARRIER_CLUSTER = 5 /* a block barrier that the checkers see as one
                               across blocks (cluster.sync() is
                               cuemu_cluster_arrive and _wait now) */
};

/* __syncthreads() and friends: waits until every non-exited thread of the
 * block has arrived at the same call site (file and line), and returns what
 * `op` asks for. Exited threads count as arrived and contribute no
 * predicate. Kernel code. */
int cuemu_block_barrier(int op, int predicate, const char *file, int line);

/* __syncthreads() on x86-64 (emulator/core/cuemu_block_sync_x86_64.S):
 * cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, file, line) with a calling
 * convention of its own, so that a thread's switch saves only what is live
 * across the barrier: the file in rdi and the line in esi, every register
 * but rbp and rsp clobbered, from a function that keeps nothing in the red
 * zone. Not callable from C: only through the inline asm of
 * the shim (shims/cuda_builtins/cuemu_sync.h). */
void cuemu_block_sync(void);

/* A warp collective (see enum cuemu_warp_op). The lanes are those of the
 * calling thread's warp: warps are 32 consecutive threads of the block in
 * row-major linear order (x fastest), the last one partial when the block
 * size is not a multiple of 32. The collective completes when every lane of
 * the mask that exists and has not exited has arrived (CUDA's rule); lanes
 * that exited or do not exist take no part. Misuse ends the launch with an
 * error naming the intrinsic (`name`), its file:line, the mask and the
 * lanes: the caller not in its mask, or live lanes of the mask that wait at
 * a different collective or barrier. A shuffle whose source lane is not in
 * the mask, has exited or does not exist returns the caller's own value
 * (CUDA leaves it unspecified; synccheck reports a source that is gone).
 * Kernel code; outside a kernel it behaves as a warp of one lane. */
unsigned long long cuemu_warp_collective(int op, unsigned mask,
                                         unsigned long long value, int arg,
                                         int width, const char *name,
                                         const char *file, int line);

/* A warp collective on x86-64 (emulator/core/cuemu_warp_sync_x86_64.S):
 * cuemu_warp_collective() with a calling convention of its own, so that a
 * waiting lane's switch saves only what is live across the collective: the
 * op and the mask (high half) in rdi, the value in rsi, the arg and the
 * width (high half) in rdx, the name in rcx, the file in r8, the line in
 * r9d, the result in rax; every other register but rbp and rsp clobbered,
 * from a function that keeps nothing in the red zone. Not callable from C:
 * only through the inline asm of the shim
 * (shims/cuda_builtins/cuemu_warp_call.h). */
void cuemu_warp_sync(void);

/* __activemask(): the lanes of the caller's warp that reach this call site
 * together, that is the lanes waiting here once every other lane of the
 * warp has exited or blocked elsewhere. Kernel code. */
unsigned cuemu_warp_active_mask(const char *file, int line);

/* A barrier of the `count` threads of the block whose linear ids start at
 * `first` (a tile of a thread block wider than a warp: `first` a multiple
 * of `count`, `count` a power of two from 64 to 1024). It completes when
 * every non-exited thread of the range has arrived at a group barrier of the
 * same range; waiting elsewhere is reported as a deadlock. Kernel code. */
void cuemu_group_barrier(unsigned first, unsigned count, const char *file,
                         int line);

/* grid.sync(): waits until every thread of every block of the grid has
 * arrived. Only in a cooperative launch (all blocks are then resident at
 * once); elsewhere it ends the launch with an error. Kernel code. */
void cuemu_grid_sync(const char *file, int line);

/* Non-zero in a thread of a cooperative launch (grid.is_valid()). */
int cuemu_grid_is_cooperative(void);

/* The device's clocks. cuemu_clock64(): the cycle counter, at the device's
 * reported clock rate (cudaDevAttrClockRate kHz). cuemu_clock(): in kernel
 * code, its low 32 bits (%clock); in host code, the C library's clock(), so
 * that the one name serves both. cuemu_globaltimer(): nanoseconds
 * (%globaltimer). Kernel or host code. */
long long cuemu_clock64(void);
long cuemu_clock(void);
unsigned long long cuemu_globaltimer(void);

/* The calling thread made an access of `size` bytes at `address`, which is
 * not a multiple of `size`: `what` names it ("an atomic add", "a float4
 * load"), at `file`:`line` (NULL: the caller's line, found from the return
 * address). A GPU faults there; the launch ends with MISALIGNED_ADDRESS
 * (cudaErrorMisalignedAddress, sticky), naming the kernel, the block, the
 * thread and the line. The shims' atomics and the GCC plugin's test of a
 * vector access call it only when their alignment test fails. Kernel code;
 * outside a kernel it prints the message and aborts, as a fault in host
 * code would. */
CUEMU_NORETURN CUEMU_NOMERGE void
cuemu_kernel_misaligned(const volatile void *address, unsigned size,
                        const char *what, const char *file, int line);
/* As cuemu_kernel_misaligned(), for an object of `size` bytes whose
 * address must be a multiple of `align` (a power of two, at most `size`):
 * a structure declared __align__(8) of 16 bytes, an array of float4. The
 * GCC plugin's test of a wide access and the shims' cache-hinted loads
 * and stores call it. Kernel code. */
CUEMU_NORETURN CUEMU_NOMERGE void
cuemu_kernel_misaligned_object(const volatile void *address, unsigned size,
                               unsigned align, const char *what,
                               const char *file, int line);

/* Lets the other threads of the block run (used by __nanosleep and spin-wait
 * helpers). Outside a kernel it returns at once. */
void cuemu_thread_yield(void);

/* Non-zero while a launch runs under schedule perturbation
 * (CUEMU_CHECK_SCHEDULES=1, docs/checkers.md): the shims' floating-point
 * atomic adds then call cuemu_atomic_fadd_exact, their integer atomic adds
 * cuemu_atomic_slot_note. Read by kernel code,
 * written by libcuemu only. */
extern int cuemu_atomic_fadd_exact_on;
/* atomicAdd to the value of a binary floating-point format (`ebits`
 * exponent bits, `mbits` stored fraction bits: float 8 and 23, double 11
 * and 52, __half 5 and 10, __nv_bfloat16 8 and 7) at `address`, whose
 * result does not depend on the order of the adds: the address keeps the
 * exact sum of its value and of all that was added to it, and memory holds
 * that sum rounded to nearest (cuemu_check_fadd.c). `value` points to the
 * bits of the value added, `old` receives those of the value replaced, as
 * atomicAdd returns it. Kernel code, called only while
 * cuemu_atomic_fadd_exact_on is set. */
void cuemu_atomic_fadd_exact(volatile void *address, const void *value,
                             unsigned ebits, unsigned mbits, void *old);
/* An integer atomicAdd of `count` (> 0) at `address` returned `old`: the
 * places old .. old + count - 1 of a counter that may hand out places in a
 * work list. Schedule perturbation compares the two orders' lists up to
 * which thread got which places (cuemu_check_slots.c). Kernel code, called
 * only while cuemu_atomic_fadd_exact_on is set. */
void cuemu_atomic_slot_note(const volatile void *address,
                            unsigned long long old, unsigned long long count);

/* A phase of a cuda::barrier of the block completed (called by the
 * <cuda/barrier> shim from the arrival that completes it): the racecheck
 * orders the block's accesses as a block barrier would. Kernel code; does
 * nothing when the launch is not checked. */
void cuemu_check_barrier_complete(void);

/* A static __shared__ variable of `bytes` bytes is declared in the body of
 * `kernel` (cuemu-cc's translation calls this when the program or module is
 * loaded; `declaration` tells one declaration from another, so that a
 * declaration counts once however many objects hold a copy):
 * cudaFuncGetAttributes' sharedSizeBytes and the launch's check of static
 * plus dynamic shared memory count it. Host code. */
void cuemu_kernel_declare_static_shared(const void *kernel,
                                        unsigned long long declaration,
                                        size_t bytes);

/* printf() of kernel code (the shims' printf forwards to it in a kernel
 * thread): one argument, after C's default promotions. */
enum cuemu_printf_kind {
  CUEMU_PRINTF_SIGNED = 1,   /* integers of any width, as long long */
  CUEMU_PRINTF_UNSIGNED = 2, /* unsigned integers, as unsigned long long */
  CUEMU_PRINTF_DOUBLE = 3,   /* float and double */
  CUEMU_PRINTF_POINTER = 4   /* pointers, char * included */
};
typedef struct cuemu_printf_arg {
  int kind; /* enum cuemu_printf_kind */
  union {
    long long i;
    unsigned long long u;
    double d;
    const void *p;
  } value;
} cuemu_printf_arg;

/* Records a printf() call of kernel code made at file:line, as CUDA does:
 * the strings that %s conversions print are copied now (a bad pointer is
 * a kernel fault naming file:line), and the output is written on stdout
 * when the launch ends, within the launch's cudaLimitPrintfFifoSize.
 * Returns the number of arguments, or -1. Kernel code. */
int cuemu_printf_capture(const char *file, int line, const char *format,
                         int nargs, const cuemu_printf_arg *args);

/* PTX's vprintf, the printf of a kernel in nvcc's PTX, which cuemu's JIT of
 * PTX text calls (cuemu_ptx_module.c): __cuemu_slots[0] is the int result's
 * address (or null), __cuemu_slots[1] and [2] the addresses of the
 * format's and of the argument buffer's addresses; the buffer holds each
 * argument after C's promotions at an offset aligned to its size, as nvcc
 * lays it out. Kernel code. */
void cuemu_ptx_vprintf(void **__cuemu_slots);
/* PTX's malloc, free and __assertfail (a kernel's failed assert()), for
 * the same JIT, with the same slots: [0] the result's address (malloc's
 * pointer) or null, then the parameters' addresses (cuemu_ptx_abi.c).
 * Kernel code. */
void cuemu_ptx_malloc(void **__cuemu_slots);
void cuemu_ptx_free(void **__cuemu_slots);
CUEMU_NORETURN void cuemu_ptx_assertfail(void **__cuemu_slots);

/* Called by a thunk when a kernel thread that has been suspended returns. */
CUEMU_NORETURN void cuemu_thread_finish(void);

/* assert() and __trap() in kernel code: end the launch with ASSERT or TRAP,
 * naming the block, the thread and the source line. Outside a kernel,
 * cuemu_kernel_assert_fail() behaves as the C library's assert. */
CUEMU_NORETURN void cuemu_kernel_assert_fail(const char *expr, const char *file,
                                      int line, const char *function);
CUEMU_NORETURN void cuemu_kernel_trap(const char *file, int line);
/* __brkpt() and PTX's brkpt: with no debugger attached, the launch ends with
 * TRAP (an illegal instruction), naming the breakpoint. Kernel code. */
CUEMU_NORETURN void cuemu_kernel_breakpoint(const char *file, int line);

/* Shared-memory addresses of the shared state space (as on a GPU, 32 bits,
 * never 0), for __cvta_generic_to_shared() and inline PTX's cvta and
 * .shared accesses: cuemu_shared_address() converts a generic address of
 * shared memory, cuemu_shared_generic() converts one back. Each worker
 * thread maps up to 16 regions of 128 MiB (emulator/core/
 * cuemu_shared_window.c); more, or an address it did not make, ends the
 * launch. Kernel code. */
unsigned cuemu_shared_address(const void *generic);
void *cuemu_shared_generic(unsigned long long __cuemu_shared);

/* PTX's named barrier `id` (0 to 15) of `count` threads (a multiple of
 * 32, fewer than the block's): bar.sync (wait set) and bar.arrive (wait
 * clear). A warp counts as 32 threads once its live lanes have arrived.
 * Misuse ends the launch naming file:line. Kernel code. */
void cuemu_named_barrier(unsigned id, unsigned count, int wait,
                         const char *file, int line);

/* bar.red of named barrier `id` of `count` threads (as above, waiting):
 * `op` is CUEMU_BARRIER_COUNT (how many arriving threads' predicates were
 * true), CUEMU_BARRIER_AND or CUEMU_BARRIER_OR (1 or 0); every arriving
 * thread gets the result. Kernel code. */
unsigned cuemu_named_barrier_reduce(unsigned id, unsigned count, int op,
                                    int predicate, const char *file, int line);

/* The running launch's temporal grid number (PTX's %gridid): the same
 * for every thread of a launch, another for each launch of the process,
 * counted from 1; 0 outside a kernel. Kernel code. */
unsigned long long cuemu_grid_id(void);

/* The dynamic shared-memory bytes of the running launch
 * (%dynamic_smem_size); 0 outside a kernel. Kernel code. */
size_t cuemu_dynamic_shared_size(void);

/* The shared memory of a block of the running launch, static and dynamic,
 * in the device's allocation units of 128 bytes (%total_smem_size), with
 * `aggregate` also the 1 KiB reserved for the system (%aggr_smem_size); 0
 * outside a kernel. The static part is cudaFuncGetAttributes'
 * sharedSizeBytes of the running kernel. Kernel code. */
size_t cuemu_kernel_shared_size(int aggregate);

/* PTX's exit: the calling thread ends here, as if its kernel returned
 * (it counts as exited at barriers and warp collectives). Outside a kernel
 * it aborts, naming file:line. Kernel code. */
CUEMU_NORETURN void cuemu_thread_exit(const char *file, int line);

/* Non-zero when the calling OS thread is running kernel code. */
int cuemu_thread_in_kernel(void);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DEVICE_H */
