/*
 * cuemu_check.h: the GPU-less checkers (racecheck, memcheck, initcheck and
 * the parts of synccheck that need a checked build). Internal to libcuemu.
 *
 * A checked module (cuemu-cc --check=LIST) is compiled with
 * -fsanitize=thread but linked without ThreadSanitizer's runtime: the
 * compiler's calls (__tsan_read4, __tsan_write8, __tsan_atomic32_fetch_add,
 * ...) land in cuemu_check_tsan.c, which hands every access of the running
 * block to the shadow memory of cuemu_check_shadow.c. The linker records
 * what was built in as the absolute symbol `cuemu_check_built`
 * (cuemu_check_module.c reads it, with the module's thread-local symbols,
 * which are its static __shared__ arrays). The scheduler calls the hooks
 * below at launch start and end, at block start and at every rendezvous
 * that orders threads.
 */
#ifndef CUEMU_CHECK_H
#define CUEMU_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "core/cuemu_array_shape.h"
#include "core/cuemu_worker.h"

/* The name of the linker symbol that records the checkers built in. */
#define CUEMU_CHECK_BUILT_SYMBOL "cuemu_check_built"

/* Launch hooks (host code, before and after the blocks run): decide which
 * checkers run for this launch (none when the kernel's module was not built
 * with any), and take a snapshot of the tracked allocations. */
void cuemu__check_launch_begin(cuemu_launch *launch, unsigned env_mask,
                               int env_set);
void cuemu__check_launch_end(cuemu_launch *launch);

/* Schedule perturbation (CUEMU_CHECK_SCHEDULES=1): runs the launch with
 * `run_once` twice, in two thread orders, from the same device memory, and
 * reports it (cuemu__check_report) when the results differ; the caller sees
 * the first run's results (cuemu_check_perturb.c). */
typedef void (*cuemu_check_run_fn)(cuemu_launch *launch,
                                   unsigned extra_workers);
void cuemu__check_perturb(cuemu_launch *launch, unsigned extra_workers,
                          cuemu_check_run_fn run_once);
/* Takes (hold 1) or gives back (hold 0) the lock that perturbed launches
 * run under, so that a stream's copy or memset runs before or after one,
 * never during it: its bytes would be taken for the launch's results, and
 * undone by the restore between the two runs (cuemu_rt_stream_queue.c). */
void cuemu__check_perturb_exclude(int hold);

/* While a perturbed launch runs (between _begin and _end), the shims'
 * floating-point atomic adds make sums that do not depend on the order
 * (cuemu_atomic_fadd_exact, cuemu_check_fadd.c); _begin forgets the sums
 * of the run before. */
void cuemu__check_fadd_begin(void);
void cuemu__check_fadd_end(void);

/* The integer atomic adds of the two runs of a perturbed launch
 * (cuemu_atomic_slot_note, cuemu_check_slots.c): _begin(run) starts noting
 * those of run 0 or 1, _end keeps the counters whose places were the same
 * in both runs, and _explain says (1) whether `first` and `now`, the two
 * runs' contents of an allocation of `bytes` bytes, are the same work list
 * of one of those counters, its records in another order. */
void cuemu__check_slots_begin(int run);
void cuemu__check_slots_end(void);
int cuemu__check_slots_explain(const void *first, const void *now,
                               size_t bytes);

/* Appends to the table *a of n allocations (cuemu__allocation_snapshot's,
 * grown here) one live CUEMU_RT_MEMORY_SYMBOL entry per registered
 * __device__ variable (cuemu_device_variable_register) that no entry
 * already covers; returns the new length, n when memory runs out
 * (cuemu_check_variables.c). */
size_t cuemu__check_variables_append(cuemu_rt_allocation **a, size_t n);

/* The name of the registered __device__ variable that starts at `base`
 * and the file and line of its definition (1), or 0 where none is known
 * (cuemu_check_variables.c). */
int cuemu__check_variables_name(const void *base, const char **name,
                                const char **file, int *line);

/* Whether p lies in a registered __device__ variable
 * (cuemu_device_variable_register; cuemu_check_variables.c). */
int cuemu__check_variables_hold(const void *p);

/* Block hooks (on the worker): a block starts; a block barrier (or the
 * block's part of grid.sync, `grid` set) completed; a warp collective of
 * `mask` in the warp starting at thread `base` completed; a tile barrier
 * of threads [first, end) completed. */
void cuemu__check_block_begin(cuemu_worker *w);
/* Worker w left the blocks of a launch (its threads' code no longer runs
 * on this OS thread until the next block begins). A write race still
 * held back (cuemu_check_shadow.c) that changed its location
 * is reported here. */
void cuemu__check_block_leave(cuemu_worker *w);
void cuemu__check_block_sync(cuemu_worker *w, int grid);
void cuemu__check_warp_sync(cuemu_worker *w, unsigned base, unsigned mask);
void cuemu__check_tile_sync(cuemu_worker *w, unsigned first, unsigned end);

/* Synccheck for checked launches: a _count/_and/_or barrier completed
 * while some threads of the block had already returned. Ends the block. */
void cuemu__check_vote_after_exit(cuemu_worker *w);

/* The checkers running for a launch (0 when it is not checked). */
unsigned cuemu__check_launch_mask(const cuemu_launch *launch);

/* Allocation hooks of the runtime API (cuemu_rt_memory.c): a new tracked
 * allocation (`site` is the caller's return address), a free, and bytes
 * written by the host side (cudaMemcpy, cudaMemset). */
void cuemu__check_alloc_note(void *base, size_t size, int kind,
                             const void *site);
/* A CUDA array's elements, laid out as `shape` says: as device memory (a
 * "written" map), named "cudaArray" in reports, which give an element's
 * coordinates, and left out of the leak report. */
void cuemu__check_alloc_note_array(void *base, size_t size, const void *site,
                                   const cuemu__array_shape *shape);
/* In `element`, the element of an array holding byte `offset` (less than
 * the array's size), as a user counts it: "element (3,7)", "element
 * (1,2,1)", "element (2,1) of layer 1", "element (0,5) of face 4 of layer
 * 2", with " of level 1" after it in a mipmapped array's level; and in
 * `array`, what the array is: "16x8 elements of 4 bytes", with ", 3
 * layers", ", 6 faces" or ", 2 layers of 6 faces", and " in a mipmapped
 * array" for a level (cuemu_check_array_element.c). */
void cuemu__check_array_element(const cuemu__array_shape *shape, size_t offset,
                                char *element, size_t element_size, char *array,
                                size_t array_size);
void cuemu__check_alloc_free(void *base);
void cuemu__check_mark_init(void *p, size_t n);
/* cudaFree of a pointer that is no live allocation: a double free when it
 * is a freed one (reported on stderr in checked processes). */
void cuemu__check_bad_free(void *p, const void *site);
/* cudaDeviceReset freed everything. */
void cuemu__check_alloc_reset(void);

/* Reports after which the launch goes on (racecheck, initcheck, synccheck's
 * of a shuffle that reads exited lanes;
 * cuemu_check_report.c). _begin counts a report of `kind` (the launch's
 * kernel and the two words a and b, such as the code addresses of the two
 * accesses, make its key) and says what to do with it: NONE, nothing more;
 * KEEP, format it with cuemu__check_report, which keeps it as the launch's
 * message (the launch's first report); PRINT, the same and print it (the
 * key's first report in the process), unless a report with the same
 * `where` (its source lines) was printed already. Kernel or host code, any
 * thread. */
enum cuemu_check_report_how {
  CUEMU_REPORT_NONE = 0,
  CUEMU_REPORT_KEEP = 1,
  CUEMU_REPORT_PRINT = 2
};
enum cuemu_check_report_kind {
  CUEMU_REPORT_RACE = 1,
  CUEMU_REPORT_INIT = 2,
  CUEMU_REPORT_TEXTURE = 3,
  CUEMU_REPORT_SCHEDULE = 4,
  CUEMU_REPORT_SYNC = 5
};
int cuemu__check_report_begin(cuemu_launch *launch, int kind, uintptr_t a,
                              uintptr_t b);
void cuemu__check_report(cuemu_launch *launch, int how, const char *where,
                         const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A call of the runtime API returned `code` (not cudaErrorNotReady), in
 * host code: memcheck's report of it in checked processes
 * (cuemu_check_api.c; nothing otherwise). */
void cuemu__check_api_error(int code);
/* The return address into the program's code of the call of libcuemu
 * that is running (NULL when none is found), and the `ncallers` return
 * addresses beyond it into callers (the rest NULL). Host code. */
const void *cuemu__check_api_caller(const void **callers, int ncallers);
/* Work queued on a stream runs later on the stream's own thread, where no
 * frame is the program's: cuemu__check_api_issuer() records the program's
 * call that queues it (cuemu__check_api_caller's return address and its
 * callers; all NULL when no checker is built into the process), which the
 * thread that runs it names with cuemu__check_api_run_for(&call) before and
 * cuemu__check_api_run_for(NULL) after. cuemu__check_api_call() is then that
 * call, else cuemu__check_api_caller's: the call that initcheck's report of
 * a copy's source names; cuemu__check_api_call_line() its line. As many
 * callers as an allocation keeps (CUEMU_CHECK_ALLOC_CALLERS): a copy that
 * a library queues (CUB's, under thrust::stable_sort_by_key) is made some
 * twenty frames below the program's call, and with 8 callers the report
 * named the shims' cudaMemcpyAsync instead
 * (tests/buggy/init_copy_source_thrust_sort.cu). */
#define CUEMU_CHECK_CALL_CALLERS 24
typedef struct cuemu_check_call {
  const void *pc;
  const void *callers[CUEMU_CHECK_CALL_CALLERS + 1]; /* the last NULL */
} cuemu_check_call;
void cuemu__check_api_issuer(cuemu_check_call *out);
void cuemu__check_api_run_for(const cuemu_check_call *call);
const void *cuemu__check_api_call(void);
void cuemu__check_api_call_line(const void *call, char *buf, size_t size);
/* The runtime API's name ("cudaMemcpyAsync") of the shims' function that
 * `caller` (cuemu__check_api_caller's) is in, written in buf; "" when it
 * is in none (inlined into the program's function, say). */
const char *cuemu__check_api_name(const void *caller, char *buf,
                                  size_t size);
/* A report of host code after which the program goes on (racecheck's of a
 * host access, cuemu_rt_pinned_guard.c; initcheck's of a copy's source,
 * cuemu_check_copy_source.c): counted for the exit status, and printed
 * once for its `where` (its source lines). */
void cuemu__check_report_host(const char *where, const char *text);

/* A report that counts among a program's distinct ones without being
 * printed by cuemu__check_report (a leak reported at exit; a memcheck or
 * synccheck report that ended a whole program's launch,
 * core/cuemu_launch_run.c). */
void cuemu__check_report_counted(void);

/* initcheck of the source of a copy that the runtime API makes: `depth`
 * slices, `slice` bytes apart, of `height` rows, `pitch` bytes apart, of
 * `width` bytes from `src` (cuemu_check_copy_source.c). Any thread. */
void cuemu__check_copy_source(const void *src, size_t width, size_t height,
                              size_t pitch, size_t depth, size_t slice);

/* ---- Inside the checkers ------------------------------------------------ */

/* What a checked module holds (cuemu_check_module.c). */
typedef struct cuemu_check_symbol {
  size_t offset, size;   /* in the module's thread-local block */
  char *name;            /* the source name ("tile") */
  int shared;            /* 0: the shims' own thread-local storage */
} cuemu_check_symbol;

typedef struct cuemu_check_module {
  uintptr_t lo, hi;      /* the module's loaded code */
  char path[4096];
  unsigned built;        /* checkers built in; 0: not a checked module */
  size_t tls_modid, tls_size;
  cuemu_check_symbol *syms;  /* sorted by offset */
  size_t nsyms;
} cuemu_check_module;

/* The module that holds `code` (cached; NULL when none is found). */
const cuemu_check_module *cuemu__check_module_of(const void *code);
/* Called by cuemu_module_load() while the module's file still exists: reads
 * the module that holds `code` afresh. */
void cuemu__check_module_loaded(const void *code);
/* Forgets the module holding `code`, which is about to be unloaded, and
 * closes its file. */
void cuemu__check_module_unloading(const void *code);

/* The shared array of a module holding offset `off` of its thread-local
 * block, or NULL; `*nearest` gets the closest array when none holds it. */
const cuemu_check_symbol *
cuemu__check_symbol_at(const cuemu_check_module *m, size_t off,
                       const cuemu_check_symbol **nearest);

/* Writes "file:line" of code address `pc` (the user's source line: frames
 * in the shims are skipped) into buf. */
void cuemu__check_line(const void *pc, char *buf, size_t size);

/* Writes the name of the function (demangled, with its parameters) whose
 * code holds return address `pc` into buf: the innermost function that the
 * compiler inlined there, where the debugging information says. Returns 0
 * when it has none. */
int cuemu__check_function_at(const void *pc, char *buf, size_t size);

/* cuemu__check_line() for the access being checked, whose code address
 * `pc` is a return address on the calling thread's stack: where every
 * frame of `pc` is in the shims (a shim's function that the compiler did
 * not inline, as clang++ leaves the walk of a tensor map), the line of the
 * first caller in the user's code. */
void cuemu__check_line_here(const void *pc, char *buf, size_t size);

/* How many return addresses beyond an allocation's site are kept (in
 * checked runs), so that a report names the user's line that made the
 * allocation even where the site is in the code of a system header
 * (Thrust's allocator, CUB's temporary storage). */
#define CUEMU_CHECK_ALLOC_CALLERS 24

/* Writes "file:line" of an allocation made at `site` into buf: the site's
 * own line where it is in the user's code, else the first of `callers`
 * (CUEMU_CHECK_ALLOC_CALLERS return addresses, the rest NULL, or NULL) in
 * the user's code, else the site's first line that is not in the shims. */
void cuemu__check_alloc_line(const void *site, const void *const *callers,
                             char *buf, size_t size);

/* The text a site stands for when cuemu_alloc_register_at() gave one (its
 * interned copy is the site), else NULL. */
const char *cuemu__check_site_text_of(const void *site);

/* Interned access sites: a small number for a code address, and back. */
uint16_t cuemu__check_site(const void *pc);
const void *cuemu__check_site_pc(uint16_t site);
/* Whether the innermost source frame of a site is in the shims: their own
 * bookkeeping (cuda::barrier, wide tiles) is ordered by the scheduler,
 * not by what the checkers see, so race and initcheck reports whose
 * accesses come from there are dropped. Resolved (with addr2line) only when
 * such a report is about to be made. */
int cuemu__check_site_in_shims(uint16_t site);
/* Whether the innermost source frame of a site is in CCCL's headers (CUB,
 * Thrust, libcu++). Their algorithms read words of their own shared
 * temporary storage that nothing wrote and leave the values unused (lane 0
 * of CUB's shared-memory warp scan reads the word before its own for an
 * exclusive value that is undefined there): initcheck does not report
 * their reads of shared memory (compute-sanitizer's initcheck checks
 * global memory only); their reads of global memory are reported. */
int cuemu__check_site_in_cccl(uint16_t site);

/* Access kinds for cuemu__check_access. */
enum cuemu_check_access_kind {
  CUEMU_ACCESS_READ = 1,
  CUEMU_ACCESS_WRITE = 2,
  CUEMU_ACCESS_ATOMIC = 4,   /* with READ and/or WRITE */
  CUEMU_ACCESS_RANGE = 8,    /* a block copy: no alignment rule */
  CUEMU_ACCESS_VOLATILE = 16, /* through a volatile lvalue */
  CUEMU_ACCESS_CAS = 32       /* with ATOMIC: the user's compare-and-swap */
};

/* Called by the instrumentation for every access of checked code. */
void cuemu__check_access(const void *addr, size_t size, int kind,
                         const void *pc);
/* A texture fetch read `size` bytes at `addr` (device/cuemu_texture_fetch.c;
 * `what`, `file` and `line` name the fetch; a linear fetch's texels of
 * weight 0 are not shown). Under racecheck, bytes that a thread of this
 * launch wrote are reported: CUDA leaves a texture read of memory written
 * in the same launch undefined (the texture cache is not coherent with the
 * writes), barriers or not. Under initcheck, bytes that nothing wrote are
 * reported. Kernel code. */
void cuemu__check_texture_read(const void *addr, size_t size, const char *what,
                               const char *file, int line);
/* A fence (__threadfence): the thread's earlier global writes are
 * published to other blocks. */
void cuemu__check_fence(const void *pc);

/* Racecheck's memory (cuemu_check_race_budget.c): _take reserves `bytes`
 * of shadow (1), or refuses them where CUEMU_CHECK_RACE_MEMORY would be
 * passed (0); _give returns them; _note says, once for each allocation,
 * that the allocation at `base` of `size` bytes, allocated at `site` ("" if
 * unknown), is left out of racecheck because its `shadow` did not fit. */
int cuemu__check_race_budget_take(size_t bytes);
void cuemu__check_race_budget_give(size_t bytes);
void cuemu__check_race_budget_note(const void *base, size_t size,
                                   size_t shadow, const char *site);

/* Allocation facts for reports and for initcheck (cuemu_check_alloc.c). */
typedef struct cuemu_check_alloc_info {
  const void *site;      /* where it was allocated (may be NULL) */
  const char *name;      /* registered name (may be NULL) */
  unsigned char *init;   /* per-byte "written" map, or NULL */
  cuemu__array_shape array; /* a CUDA array's layout (element 0: none) */
  /* The return addresses beyond `site`, innermost first, the rest NULL. */
  const void *callers[CUEMU_CHECK_ALLOC_CALLERS];
} cuemu_check_alloc_info;
int cuemu__check_alloc_info(const void *base, cuemu_check_alloc_info *out);

/* How many of the `n` bytes at `p` in an allocation with a "written" map
 * (cudaMalloc memory) nothing wrote; when there are any, the allocation's
 * base and size, and the offset from its base of the first such byte. */
size_t cuemu__check_unwritten(const void *p, size_t n, void **base,
                              size_t *size, size_t *first);

/* The race shadow (`bytes` bytes, zero at first) that the allocation at
 * `base` keeps from launch to launch, or NULL when the checkers do not know
 * it; and the clearing of every such shadow. */
void *cuemu__check_alloc_cells(const void *base, size_t bytes);
void cuemu__check_alloc_clear_cells(void);

#endif /* CUEMU_CHECK_H */
