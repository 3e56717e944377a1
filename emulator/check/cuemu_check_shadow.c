/*
 * cuemu_check_shadow.c: the shadow memory behind racecheck, memcheck and
 * initcheck.
 *
 * Every access of a checked kernel is classified, in this order: the
 * block's dynamic shared buffer, the module's thread-local block (its
 * static __shared__ arrays, per worker and so per running block), a live
 * tracked allocation (cudaMalloc, cudaMallocManaged, cudaHostAlloc,
 * cudaHostRegister, __device__ symbols and buffers given to
 * cuemu_alloc_register); then, as errors, a freed allocation (use after
 * free), the redzone around an allocation or past the dynamic buffer, and
 * the gaps between static shared arrays (out of bounds). Anything else is
 * host memory the checkers do not know, and is left alone.
 *
 * Each byte of shared memory and of the allocations a launch touches has a
 * cell (kept per 4-byte granule while the granule is accessed whole, see
 * track_granules): the last writer and the last reader (thread, block),
 * the access sites, and the sync clock of the block when they happened. A block's
 * clock ticks at every rendezvous that orders threads (block barriers,
 * warp collectives, tile barriers); two accesses of different threads of a
 * block are ordered when a rendezvous that both took part in came after the
 * earlier one. Accesses of different blocks are ordered by grid.sync (the
 * grid generation) or, leniently, by a fence that the earlier access's block
 * executed after it (the threadfence-reduction pattern); an earlier read
 * also by a strong store to global memory (an atomic or volatile one) of
 * its thread or block after it (the decoupled look-back of in-place
 * algorithms: a read cannot see a write made after its thread's later
 * store was seen). Shared cells
 * count as empty when a block starts (a stamp per block); global cells
 * live for one launch (the kernel boundary orders everything). Two
 * atomics never race; an atomic and a plain access of another thread
 * race unless ordered (PTX's memory model), and an atomic read-modify-write
 * is the last write of its cell, so that its thread's later accesses are
 * ordered after the atomics before it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>

#include <cuemu/cuemu_check_fast.h>
#include <cuemu/cuemu_runtime.h>

#include "check/cuemu_check.h"
#include "core/cuemu_access_limits.h"
#include "core/cuemu_allocations.h"
#include "core/cuemu_device_heap.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_texture.h"

/* Bytes past the end of a buffer (and before the start of an allocation)
 * in which an access is out of bounds rather than unknown host memory. */
#define REDZONE 256u
#define WARPS (CUEMU_MAX_THREADS_PER_BLOCK / 32u)
#define FENCE_SLOTS CUEMU_CHECK_FENCE_SLOTS
#define LOCKS CUEMU_CHECK_LOCKS

/* A cell (cuemu/cuemu_check_fast.h): the block clock at the last write
 * and read, their blocks (linear + 1) and threads (linear + 1; 0: none),
 * sites and grid generations, and the launch that wrote it (1..65535). */
typedef cuemu_check_cell cell;

enum {
  CELL_INIT = CUEMU_CHECK_CELL_INIT,
  CELL_SPLIT = CUEMU_CHECK_CELL_SPLIT,
  CELL_WVOLATILE = CUEMU_CHECK_CELL_WVOLATILE,
  CELL_RVOLATILE = CUEMU_CHECK_CELL_RVOLATILE,
  CELL_WATOMIC = CUEMU_CHECK_CELL_WATOMIC,
  CELL_RATOMIC = CUEMU_CHECK_CELL_RATOMIC,
  CELL_WSTRONG = CUEMU_CHECK_CELL_WSTRONG,
  CELL_RSTRONG = CUEMU_CHECK_CELL_RSTRONG
};
_Static_assert(sizeof(cell) == 32, "the lock stripes below assume 32-byte cells");
#define HALF_AT(h, o)                                                          \
  (offsetof(cell, h##seq) == (o) && offsetof(cell, h##block) == (o) + 4 &&     \
   offsetof(cell, h##tid) == (o) + 8 && offsetof(cell, h##site) == (o) + 10 && \
   offsetof(cell, h##gen) == (o) + 12)
_Static_assert(HALF_AT(w, 0) && offsetof(cell, flags) == 14 && HALF_AT(r, 16) &&
                   offsetof(cell, epoch) == 30 &&
                   offsetof(cuemu_check_half, tag) == 14 &&
                   sizeof(cuemu_check_half) == 16,
               "cuemu_check_fast_record stores a cell's halves whole");
#undef HALF_AT
#define GRANULE CUEMU_CHECK_GRANULE

/* Racecheck's cells of an allocation of `size` bytes: one per granule,
 * then one per byte (whole granules) for the granules that are split. */
static size_t granules(size_t size) { return (size + GRANULE - 1) / GRANULE; }
static size_t shadow_cells(size_t size) {
  return granules(size) * (1 + GRANULE);
}
static size_t shadow_bytes(size_t size) {
  return shadow_cells(size) * sizeof(cell);
}


typedef struct region {
  cuemu_rt_allocation a;
  cuemu_check_alloc_info info;
  const char *defined;      /* a __device__ variable's file, or NULL */
  int defined_line;
  _Atomic(cell *) cells;    /* made on first use */
  int persistent;           /* cells kept by the allocation (cuemu_check_alloc.c) */
  atomic_int unraced;       /* its shadow did not fit in racecheck's memory
                             * (cuemu_check_race_budget.c): no cells */
  int foreign;              /* device memory of a device that the launching
                             * one has no peer access to: its number; or -1 */
  int limited;              /* memory whose access is set per device
                             * (cuMemSetAccess) that the launching device
                             * may not read and write all of */
} region;

typedef struct cuemu_check_launch {
  unsigned checks;
  /* The checkers of shared memory: `checks` without initcheck unless
   * CUEMU_CHECK_SHARED_INIT=1. compute-sanitizer's initcheck checks global
   * memory only, and correct kernels read unwritten shared bytes whose
   * values they then drop (a block scan's carry lanes that fewer warps
   * filled, a funnel shift's masked-off bytes). */
  unsigned shared_checks;
  uint16_t epoch;           /* cells of other launches count as empty */
  const cuemu_check_module *mod;
  unsigned long long serial;
  int device;               /* the launching thread's current device */
  region *regions;
  size_t nregions;
  _Atomic uint32_t fence[FENCE_SLOTS]; /* per block: clock of its last fence */
  /* Per block: the clock of its last strong store (read_published()). */
  _Atomic uint32_t strong[FENCE_SLOTS];
  pthread_mutex_t lock;
} cuemu_check_launch;

_Static_assert((int)CUEMU_ACCESS_READ == CUEMU_CHECK_FAST_READ &&
                   (int)CUEMU_ACCESS_WRITE == CUEMU_CHECK_FAST_WRITE &&
                   (int)CUEMU_ACCESS_ATOMIC == CUEMU_CHECK_FAST_ATOMIC &&
                   (int)CUEMU_ACCESS_RANGE == CUEMU_CHECK_FAST_RANGE &&
                   (int)CUEMU_ACCESS_VOLATILE == CUEMU_CHECK_FAST_VOLATILE,
               "cuemu_check_fast.h numbers the access kinds as we do");

/* Which of cuemu_check_fast's skipped ranges holds what. */
enum { SKIP_BUILTINS = 0, SKIP_GAPS = 1 };

/* What memory a report is about: "shared memory tile+12 (tile: 128
 * bytes)", "global memory 0x...+12 (allocation of 400 bytes at 0x...,
 * allocated at p.cu:20)", "global memory scratch 0x...+4 (__device__
 * variable scratch of 12 bytes at 0x..., defined at p.cu:11)" or
 * "cudaArray element (3,7) (byte 460 of cudaArray 0x..., 16x8 elements of
 * 4 bytes, allocated at p.cu:26)". */
typedef struct target {
  int shared;
  const char *name;       /* array, registered buffer or variable, or NULL */
  const void *base;
  size_t offset, size;    /* of the access in the array / allocation */
  const void *site;       /* allocation site */
  const void *const *callers; /* beyond site (cuemu__check_alloc_line) */
  const cuemu__array_shape *array; /* a CUDA array's layout, or NULL */
  const char *defined;    /* a __device__ variable's file, or NULL */
  int defined_line;
} target;

/* A write race held back until the worker's next checked access, or the
 * block's next barrier or its end, whichever comes first (hold_race): the
 * location's bytes before the write are kept, and the race is reported
 * only when the write has changed them. A write that
 * stored the value the location held has no effect in any order (all
 * threads clearing a shared flag, or marking a vertex visited at the same
 * depth), a hazard that compute-sanitizer's racecheck gives severity INFO
 * and does not show by default.
 *
 * A plain read of a word that another thread's atomic wrote last, with
 * nothing between them, is held likewise (`cas` set), until the reading
 * thread's next compare-and-swap of the same word, which then drops it:
 * the read's value is only the guess that the compare-and-swap checks
 * (`old = *p; do { assumed = old; old = atomicCAS(p, assumed, f(assumed));
 * } while (assumed != old);`, the CUDA Programming Guide's atomicAdd of
 * double), so that no result depends on the race. Any other access of the
 * worker's, a barrier or the block's end reports it. */
enum { HELD_RACES = 16, HELD_BYTES = 16 };
typedef struct held_race {
  target raced;             /* the byte raced on, its allocation's site kept */
  const unsigned char *at;  /* the bytes the write stored */
  size_t nbytes;
  unsigned char before[HELD_BYTES];
  const char *hazard, *first, *second;
  uint32_t pblock, cblock;
  uint16_t ptid, psite, ctid;
  int cas;
  const void *pc;
} held_race;

/* One worker's view of the block it runs. */
typedef struct block_state {
  /* What kernel code decides without calling in (cuemu_check_fast.h):
   * the ranges with nothing to check (this OS thread's built-in variables,
   * the gaps below) and copies of hot[] below. */
  cuemu_check_fast fast;
  unsigned long long serial;
  cuemu_check_launch *cl;
  char *tls, *dyn;
  size_t tls_size, dyn_size;
  cell *tls_cells, *dyn_cells;
  size_t tls_cap, dyn_cap;
  /* What the shared cells of the running block hold as their epoch: a
   * number of this worker's, new for each block (never 0, the epoch of
   * fresh cells), so that the cells of earlier blocks count as empty
   * without being cleared. When it wraps, every shared cell is cleared. */
  uint16_t shared_epoch;
  char *dyn_own;          /* the dynamic buffer, with a redzone each side */
  size_t dyn_own_size;
  uint32_t thread_fence[CUEMU_MAX_THREADS_PER_BLOCK]; /* clock of last fence */
  uint32_t thread_strong[CUEMU_MAX_THREADS_PER_BLOCK]; /* of last strong store */
  /* Clock of each thread's last atomic or volatile read (ordered()). */
  uint32_t thread_observe[CUEMU_MAX_THREADS_PER_BLOCK];
  /* The block's number, sync clocks and grid generation are in fast
   * (fast.block, fast.seq, fast.block_seq, fast.gen). */
  uint32_t joint[WARPS][32][32];
  uint32_t tile_seq[5][CUEMU_MAX_THREADS_PER_BLOCK / 64];
  /* The tracked allocations this worker touched last, most recent first:
   * the accesses of a kernel go to a few buffers in turn, which a binary
   * search over all of them keeps mispredicting. Mirrored in fast.hot
   * (see set_hot). */
  region *hot[2];
  /* In fast.skip_lo/skip_span: SKIP_BUILTINS holds this OS thread's
   * copies of the built-in variables (threadIdx, ...), the runtime's, read
   * by every thread of a checked kernel; SKIP_GAPS and the next, address
   * ranges that hold no allocation, nothing within REDZONE of one, and no
   * shared memory, where an access (a thread's stack, say) has nothing to
   * check: the two found last, most recent first. */
  /* The static shared array (or thread-local of the shims) accessed
   * last. */
  const cuemu_check_symbol *hot_sym;
  /* Counted in `racers` (below). */
  int racing;
  /* Write races not reported yet (held_race). */
  held_race held[HELD_RACES];
  int nheld;
  /* The next state in `states` (below), and the pending store of another
   * worker's that await_stores waited for in vain last. */
  struct block_state *next_state;
  const struct block_state *stuck_state;
  uintptr_t stuck_store;
} block_state;

/* Every worker's state, newest first; a state lives as long as the
 * process (its OS thread's, see cuemu__check_block_begin). */
static struct block_state *_Atomic states;

static __thread block_state *self_state;

static CUEMU_NORETURN void fail(cuemu_worker *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void settle_held(cuemu_worker *w, block_state *b);
/* What checked code reads while this OS thread runs no block with the
 * shadow checkers: host code of a checked build (a CPU reference loop in a
 * .cu file, a constructor), or kernel code of a launch without them. There
 * is nothing to check then (cuemu_check_access() would find no launch), so
 * the whole address space is one skipped range and the entry points decide
 * every access inline: sent to libcuemu, each cost a call and a look-up of
 * the thread's worker, and made a host loop of a checked build a hundred
 * times slower than an unchecked one. The pointer is never NULL, which
 * spares the entry points a test. */
static cuemu_check_fast no_block = {.skip_lo = {0},
                                    .skip_span = {UINTPTR_MAX}};
__thread cuemu_check_fast *cuemu_check_fast_state CUEMU_TLS_IE = &no_block;
static atomic_ullong launch_serials;
static unsigned char locks[LOCKS];

extern atomic_int cuemu__check_present;

/* ---- Launch and block hooks ------------------------------------------- */

static int by_base(const void *x, const void *y) {
  const region *a = x, *b = y;
  return a->a.base < b->a.base ? -1 : a->a.base > b->a.base;
}

/* The device of an allocation that the calling thread's current device
 * (the launching one) may not touch, or -1. Memory whose access is set
 * per device (cuMemSetAccess) is no device's in this sense: *limited is
 * set when the launching device may not read and write all of it. */
static int foreign_device(const cuemu_rt_allocation *a, int *limited) {
  int full = 1;
  *limited = 0;
  if (cuemu__access_limits_meet(a->base, a->size, cuemu__device_current(),
                                &full)) {
    *limited = !full;
    return -1;
  }
  if (a->kind != CUEMU_RT_MEMORY_DEVICE)
    return -1;
  int owner = (int)(a->flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT);
  return cuemu__device_peer_enabled(cuemu__device_current(), owner) ? -1
                                                                     : owner;
}

void cuemu__check_launch_begin(cuemu_launch *L, unsigned env_mask,
                               int env_set) {
  L->check = NULL;
  L->shadow_checks = 0;
  const cuemu_check_module *m =
      cuemu__check_module_of((const void *)L->kernel->thunk);
  if (!m || !m->built)
    return;
  unsigned checks = m->built & (env_set ? env_mask : CUEMU_CHECK_ALL);
  if (!checks)
    return;
  cuemu_check_launch *cl = calloc(1, sizeof *cl);
  if (!cl)
    return;
  cl->checks = checks;
  cl->shared_checks =
      L->check_shared_init ? checks : checks & ~(unsigned)CUEMU_CHECK_INIT;
  cl->mod = m;
  cl->serial = atomic_fetch_add(&launch_serials, 1) + 1;
  cl->device = cuemu__device_current();
  cl->epoch = (uint16_t)((cl->serial - 1) % 65535u + 1u);
  /* After 65535 launches the tags come round again: forget every kept
   * cell, so that none from long ago passes for this launch's. */
  if (cl->epoch == 1 && cl->serial > 1)
    cuemu__check_alloc_clear_cells();
  pthread_mutex_init(&cl->lock, NULL);
  cuemu_rt_allocation *snap = NULL;
  size_t n = cuemu__allocation_snapshot(&snap);
  /* The host objects of device variables, which a kernel given host
   * code's `&d_var` reaches: host memory, as on a GPU. */
  if (checks & CUEMU_CHECK_MEM)
    n = cuemu__variable_shadows_append(&snap, n);
  /* The program's own namespace-scope __device__ variables, which host
   * code need not name (a symbol copy makes one a tracked allocation):
   * without a region, racecheck left a race on one unseen (a __device__
   * scratch array every thread of every block writes). They are symbols:
   * their neighbours are other variables, no redzone (memcheck), and with
   * no "written" map, initcheck leaves them alone, as a GPU's statically
   * initialised variables are written. */
  if (checks & CUEMU_CHECK_RACE)
    n = cuemu__check_variables_append(&snap, n);
  cl->regions = calloc(n ? n : 1, sizeof *cl->regions);
  if (cl->regions) {
    for (size_t i = 0; i < n; ++i) {
      region *r = &cl->regions[cl->nregions++];
      r->a = snap[i];
      if (!cuemu__check_alloc_info(r->a.base, &r->info))
        memset(&r->info, 0, sizeof r->info);
      /* A __device__ variable is named by its definition. */
      if (r->a.kind == CUEMU_RT_MEMORY_SYMBOL && !r->info.name &&
          !cuemu__check_variables_name(r->a.base, &r->info.name, &r->defined,
                                       &r->defined_line))
        r->defined = NULL;
      r->foreign = foreign_device(&r->a, &r->limited);
      atomic_init(&r->cells, NULL);
      atomic_init(&r->unraced, 0);
    }
    qsort(cl->regions, cl->nregions, sizeof *cl->regions, by_base);
  }
  free(snap);
  L->check = cl;
  L->shadow_checks = checks & ~(unsigned)CUEMU_CHECK_SYNC;
  /* The checker sees each texel a fetch reads: no fetch takes the direct
   * path while this launch runs. */
  if (L->shadow_checks & CUEMU_CHECK_RACE)
    cuemu__texture_racecheck(1);
}

unsigned cuemu__check_launch_mask(const cuemu_launch *L) {
  return L->check ? L->check->checks : 0;
}

void cuemu__check_launch_end(cuemu_launch *L) {
  cuemu_check_launch *cl = L->check;
  if (!cl)
    return;
  if (L->shadow_checks & CUEMU_CHECK_RACE)
    cuemu__texture_racecheck(-1);
  for (size_t i = 0; i < cl->nregions; ++i) {
    cell *c = atomic_load(&cl->regions[i].cells);
    if (c && !cl->regions[i].persistent) {
      munmap(c, shadow_bytes(cl->regions[i].a.size));
      cuemu__check_race_budget_give(shadow_bytes(cl->regions[i].a.size));
    }
  }
  free(cl->regions);
  pthread_mutex_destroy(&cl->lock);
  free(cl);
  L->check = NULL;
}

/* Grows a shadow array to `need` cells (cleared). */
static cell *grow(cell *old, size_t *cap, size_t need) {
  if (need <= *cap)
    return old;
  free(old);
  cell *c = calloc(need, sizeof *c);
  *cap = c ? need : 0;
  return c;
}

typedef struct tls_index {
  unsigned long module, offset;
} tls_index;
extern void *__tls_get_addr(tls_index *ti);

/* Records where this OS thread's built-in variables lie. */
static void note_builtins(block_state *b) {
  const struct {
    const void *p;
    size_t size;
  } vars[] = {{&threadIdx, sizeof threadIdx},
              {&blockIdx, sizeof blockIdx},
              {&blockDim, sizeof blockDim},
              {&gridDim, sizeof gridDim},
              {&cuemu_dynamic_shared, sizeof cuemu_dynamic_shared},
              {&cuemu_thread_detached, sizeof cuemu_thread_detached},
              {&cuemu_ptx_carry, sizeof cuemu_ptx_carry}};
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
    uintptr_t a = (uintptr_t)vars[i].p;
    if (a < lo)
      lo = a;
    if (a + vars[i].size > hi)
      hi = a + vars[i].size;
  }
  b->fast.skip_lo[SKIP_BUILTINS] = lo;
  b->fast.skip_span[SKIP_BUILTINS] = hi - lo;
}

static cell *region_cells(cuemu_check_launch *cl, region *r);

/* Makes `r` the tracked allocation touched last, in hot[] and in what
 * kernel code reads (fast.hot: live allocations that this device may
 * touch only, and under racecheck only with their cells). */
static void set_hot(block_state *b, region *r, unsigned checks) {
  b->hot[1] = b->hot[0];
  b->hot[0] = r;
  b->fast.hot[1] = b->fast.hot[0];
  int fast = r && r->a.state == CUEMU_RT_MEMORY_LIVE && r->foreign < 0 &&
             !r->limited && !(r->a.flags & CUEMU__ALLOCATION_UNREACHED) &&
             r->a.size >= CUEMU_CHECK_FAST_MAX;
  cell *race = fast && (checks & CUEMU_CHECK_RACE) ? region_cells(b->cl, r)
                                                   : NULL;
  if (!race && (checks & CUEMU_CHECK_RACE))
    fast = 0;
  b->fast.hot[0].base = fast ? (uintptr_t)r->a.base : 0;
  b->fast.hot[0].limit = fast ? r->a.size - (CUEMU_CHECK_FAST_MAX - 1) : 0;
  b->fast.hot[0].init =
      fast && (checks & CUEMU_CHECK_INIT) ? r->info.init : NULL;
  b->fast.hot[0].race = race;
  b->fast.hot[0].shadow = race ? CUEMU_CHECK_FAST_RACE_TAG
                               : (uintptr_t)b->fast.hot[0].init;
}

/* Makes [lo, lo + span) of shared memory (a whole static array, or the
 * dynamic buffer), whose granule cells `cells` are counted from `origin`,
 * the shared memory that kernel code decides inline (cuemu_check_fast.h)
 * for the shared-memory checkers `checks` (a launch's shared_checks): with
 * racecheck or initcheck when they have the cells, else with memcheck or
 * with nothing to check. */
static void set_hot_shared(block_state *b, char *lo, size_t span, char *origin,
                           cell *cells, unsigned checks) {
  int fast = checks & (CUEMU_CHECK_RACE | CUEMU_CHECK_INIT) ? cells != NULL
                                                            : 1;
  b->fast.shared_lo = fast ? (uintptr_t)lo : 0;
  b->fast.shared_span = fast ? span : 0;
  b->fast.shared_origin = (uintptr_t)origin;
  b->fast.shared_cells = cells;
  b->fast.shared_checks =
      (uint16_t)((checks & CUEMU_CHECK_RACE ? CUEMU_CHECK_FAST_SHARED_RACE : 0) |
                 (checks & CUEMU_CHECK_INIT ? CUEMU_CHECK_FAST_SHARED_INIT : 0) |
                 (checks & CUEMU_CHECK_MEM ? CUEMU_CHECK_FAST_SHARED_MEM : 0));
}

/* ---- Racecheck without the cell locks --------------------------------- */

/* While one OS thread alone runs blocks under racecheck, it updates global
 * cells without their locks (cuemu_check_fast_claim, `unlocked` in its
 * fast state). `racers` counts the OS threads between the start of a
 * racecheck block and cuemu__check_block_leave; `solo` is the thread that
 * may skip the locks, or NULL. Before a second thread runs a racecheck
 * block it takes that right back: it clears the holder's `unlocked`, makes
 * every thread of the process execute a full memory barrier
 * (membarrier(2), so that the holder either sees the cleared flag at its
 * next update or has its `busy` flag visible) and waits until the holder
 * is not in the middle of an update. The holder never waits for anything
 * there, so a kernel spinning on another grid's flag cannot hang it.
 * Without membarrier every thread takes the locks. */
static atomic_int racers;
static block_state *_Atomic solo;
static pthread_mutex_t solo_lock = PTHREAD_MUTEX_INITIALIZER;
static int membarrier_state; /* 1: registered; -1: unavailable (solo_lock) */

/* fork(): only the calling thread goes on in the child, so a holder that
 * is another thread is gone there, and so are the other racers. */
static void solo_before_fork(void) { pthread_mutex_lock(&solo_lock); }
static void solo_after_fork_parent(void) { pthread_mutex_unlock(&solo_lock); }
static void solo_after_fork_child(void) {
  block_state *b = self_state;
  atomic_store(&racers, b && b->racing ? 1 : 0);
  if (atomic_load(&solo) != b)
    atomic_store(&solo, NULL);
  pthread_mutex_unlock(&solo_lock);
}

static int membarrier_ready(void) {
#ifndef SYS_membarrier
  return 0;
#else
  if (!membarrier_state &&
      pthread_atfork(solo_before_fork, solo_after_fork_parent,
                     solo_after_fork_child) != 0)
    membarrier_state = -1;
  if (!membarrier_state) {
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    membarrier_state =
        cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                syscall(SYS_membarrier,
                        MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0
            ? 1
            : -1;
  }
  return membarrier_state > 0;
#endif
}

/* Takes the right to skip the locks back from its holder `h` (solo_lock
 * held), on thread `self`. */
static void solo_revoke(block_state *h, block_state *self) {
  __atomic_store_n(&h->fast.unlocked, 0, __ATOMIC_SEQ_CST);
  if (h != self) {
#ifdef SYS_membarrier
    /* Registered in membarrier_ready(), so it does not fail; if it ever
     * did, no thread skips the locks from now on, and the holder's update
     * in flight is waited for after a fence of this thread's own. */
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
      membarrier_state = -1;
      atomic_thread_fence(memory_order_seq_cst);
    }
#endif
    while (__atomic_load_n(&h->fast.busy, __ATOMIC_ACQUIRE))
      sched_yield();
  }
  atomic_store(&solo, NULL);
}

/* Thread `b` is about to run a racecheck block: it is counted, becomes the
 * holder when it is alone, and takes the right back from a holder that is
 * not alone any more. */
static void solo_enter(block_state *b) {
  int n;
  if (b->racing)
    n = atomic_load(&racers);
  else {
    b->racing = 1;
    n = atomic_fetch_add(&racers, 1) + 1;
  }
  block_state *h = atomic_load(&solo);
  if (h == b ? n == 1 && __atomic_load_n(&b->fast.unlocked, __ATOMIC_RELAXED)
             : h == NULL && n > 1)
    return;
  pthread_mutex_lock(&solo_lock);
  h = atomic_load(&solo);
  if (h && (h != b || atomic_load(&racers) != 1))
    solo_revoke(h, b);
  if (!atomic_load(&solo) && atomic_load(&racers) == 1 && membarrier_ready()) {
    /* A thread that starts a block after the store below sees it; one that
     * started before is seen here. */
    atomic_store(&solo, b);
    if (atomic_load(&racers) == 1)
      __atomic_store_n(&b->fast.unlocked, 1, __ATOMIC_SEQ_CST);
    else
      atomic_store(&solo, NULL);
  }
  pthread_mutex_unlock(&solo_lock);
}

/* The races still held when the block that made them ended (after its
 * last barrier): those that changed their bytes are reported. Host code,
 * the worker's own stack: b's block has ended, the next one has not
 * begun. */
static void settle_at_end(cuemu_worker *w, block_state *b) {
  if (!b->nheld)
    return;
  if (!w->launch->check || b->serial != w->launch->check->serial) {
    b->nheld = 0; /* an earlier launch's */
    return;
  }
  settle_held(w, b);
}

void cuemu__check_block_begin(cuemu_worker *w) {
  cuemu_launch *L = w->launch;
  cuemu_check_launch *cl = L->check;
  if (!cl)
    return;
  block_state *b = self_state;
  if (b)
    settle_at_end(w, b);
  if (!b) {
    b = calloc(1, sizeof *b);
    if (!b)
      return;
    note_builtins(b);
    b->fast.locks = locks;
    self_state = b;
    b->next_state = atomic_load(&states);
    while (!atomic_compare_exchange_weak(&states, &b->next_state, b))
      ;
  }
  if (b->serial != cl->serial) {
    b->serial = cl->serial;
    b->cl = cl;
    b->fast.fence = (const uint32_t *)cl->fence;
    b->fast.epoch = cl->epoch;
    set_hot(b, NULL, 0);
    set_hot(b, NULL, 0);
    b->hot_sym = NULL;
    b->fast.gen = 0;
    b->tls = NULL;
    b->tls_size = 0;
    if (cl->mod->tls_size && cl->mod->tls_modid) {
      tls_index ti = {cl->mod->tls_modid, 0};
      b->tls = __tls_get_addr(&ti);
      b->tls_size = cl->mod->tls_size;
    }
    /* Shared memory has cells only for the checkers that keep them. */
    if (cl->shared_checks & (CUEMU_CHECK_RACE | CUEMU_CHECK_INIT)) {
      b->tls_cells =
          grow(b->tls_cells, &b->tls_cap, shadow_cells(b->tls_size));
      b->dyn_cells =
          grow(b->dyn_cells, &b->dyn_cap, shadow_cells(L->dynamic_shared));
    }
  }
  /* The block's dynamic shared memory comes from here, between two
   * redzones that nothing else owns, so that any access next to it is out
   * of bounds (the worker's own buffer has heap neighbours). */
  if (b->dyn_own_size < L->dynamic_shared + 2 * REDZONE) {
    free(b->dyn_own);
    b->dyn_own_size = 0;
    b->dyn_own = aligned_alloc(128, (L->dynamic_shared + 2 * REDZONE + 127) /
                                        128 * 128);
    if (b->dyn_own)
      b->dyn_own_size = L->dynamic_shared + 2 * REDZONE;
  }
  b->dyn = b->dyn_own ? b->dyn_own + REDZONE : w->dynamic_shared;
  b->dyn_size = L->dynamic_shared;
  for (int i = SKIP_GAPS; i < CUEMU_CHECK_FAST_SKIPS; ++i)
    b->fast.skip_lo[i] = b->fast.skip_span[i] = 0;
  cuemu_dynamic_shared = b->dyn;
  if (++b->shared_epoch == 0) {
    if (b->tls_cells)
      memset(b->tls_cells, 0, b->tls_cap * sizeof(cell));
    if (b->dyn_cells)
      memset(b->dyn_cells, 0, b->dyn_cap * sizeof(cell));
    b->shared_epoch = 1;
  }
  b->fast.shared_epoch = b->shared_epoch;
  set_hot_shared(b, NULL, 0, NULL, NULL, 0);
  b->fast.block = (uint32_t)(w->block_idx.x +
                        L->grid.x * (w->block_idx.y +
                                     L->grid.y * (unsigned long long)w->block_idx.z)) +
             1;
  /* Clocks only grow, so that rendezvous of earlier blocks order nothing
   * in this one. */
  b->fast.seq++;
  b->fast.bdx = w->block_dim.x;
  b->fast.bdy = w->block_dim.y;
  if (L->shadow_checks && (cl->checks & CUEMU_CHECK_RACE))
    solo_enter(b);
  cuemu_check_fast_stored(&b->fast);
  cuemu_check_fast_state = L->shadow_checks ? &b->fast : &no_block;
}

void cuemu__check_block_leave(cuemu_worker *w) {
  block_state *b = self_state;
  if (b) {
    settle_at_end(w, b);
    cuemu_check_fast_stored(&b->fast);
  }
  if (b && b->racing) {
    /* A block abandoned in a fault may have left in the middle of an
     * update (cuemu_check_fast_claim). */
    __atomic_store_n(&b->fast.busy, 0, __ATOMIC_RELEASE);
    b->racing = 0;
    atomic_fetch_sub(&racers, 1);
  }
  cuemu_check_fast_state = &no_block;
}

static block_state *current_state(cuemu_worker *w) {
  block_state *b = self_state;
  return b && w->launch->check && b->serial == w->launch->check->serial ? b
                                                                         : NULL;
}

void cuemu__check_block_sync(cuemu_worker *w, int grid) {
  block_state *b = current_state(w);
  if (!b)
    return;
  if (b->nheld)
    settle_held(w, b);
  b->fast.block_seq = ++b->fast.seq;
  if (grid)
    b->fast.gen++;
}

void cuemu__check_warp_sync(cuemu_worker *w, unsigned base, unsigned mask) {
  block_state *b = current_state(w);
  if (!b)
    return;
  uint32_t s = ++b->fast.seq;
  b->fast.fine_seq = s;
  uint32_t(*j)[32] = b->joint[base / 32];
  for (unsigned x = 0; x < 32; ++x)
    if (mask >> x & 1u)
      for (unsigned y = 0; y < 32; ++y)
        if (mask >> y & 1u)
          j[x][y] = s;
}

void cuemu__check_tile_sync(cuemu_worker *w, unsigned first, unsigned end) {
  block_state *b = current_state(w);
  if (!b)
    return;
  unsigned count = end - first, level = 0;
  while ((64u << level) < count && level < 4)
    level++;
  b->tile_seq[level][first / (64u << level)] = ++b->fast.seq;
  b->fast.fine_seq = b->fast.seq;
}

void cuemu__check_fence(const void *pc) {
  (void)pc;
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  block_state *b = current_state(w);
  if (!b)
    return;
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  uint32_t s = ++b->fast.seq;
  b->fast.fine_seq = s;
  b->thread_fence[t.x + w->block_dim.x * (t.y + w->block_dim.y * t.z)] = s;
  atomic_store_explicit(&b->cl->fence[b->fast.block % FENCE_SLOTS], s,
                        memory_order_relaxed);
}

/* ---- Reports ------------------------------------------------------------ */

static cuemu_uint3 coords(unsigned long long linear, cuemu_dim3 d) {
  cuemu_uint3 c;
  c.x = (unsigned)(linear % d.x);
  linear /= d.x;
  c.y = (unsigned)(linear % d.y);
  c.z = (unsigned)(linear / d.y);
  return c;
}

/* "block (x,y,z) thread (x,y,z)" of block+1 / thread+1 numbers. */
static void who(const cuemu_launch *L, uint32_t block, uint16_t tid, char *buf,
                size_t size) {
  cuemu_uint3 bc = coords(block - 1, L->grid), tc = coords(tid - 1u, L->block);
  snprintf(buf, size, "block (%u,%u,%u) thread (%u,%u,%u)", bc.x, bc.y, bc.z,
           tc.x, tc.y, tc.z);
}

static void site_line(uint16_t site, const void *pc, char *buf, size_t size) {
  cuemu__check_line(site ? cuemu__check_site_pc(site) : pc, buf, size);
}

static void describe(const target *t, char *buf, size_t size) {
  /* An access before the start has a negative offset. */
  int before = t->offset > SIZE_MAX / 2;
  size_t off = before ? (size_t)0 - t->offset : t->offset;
  if (t->shared) {
    snprintf(buf, size, "shared memory %s%s%zu (%s: %zu bytes)", t->name,
             before ? "-" : "+", off, t->name, t->size);
    return;
  }
  char where[512] = "";
  if (t->site) {
    char line[480];
    cuemu__check_alloc_line(t->site, t->callers, line, sizeof line);
    snprintf(where, sizeof where, ", allocated at %s", line);
  }
  /* A CUDA array's element, by its coordinates (a GPU's arrays have no
   * addresses); the byte offset into cuemu's packed copy after it. */
  if (t->array && t->array->element && !before && off < t->size) {
    char element[160], array[256];
    cuemu__check_array_element(t->array, off, element, sizeof element, array,
                               sizeof array);
    snprintf(buf, size, "cudaArray %s (byte %zu of cudaArray %p, %s%s)",
             element, off, t->base, array, where);
    return;
  }
  if (t->defined) {
    snprintf(buf, size, "global memory %s %p%s%zu (__device__ variable %s of "
             "%zu bytes at %p, defined at %s:%d)",
             t->name, t->base, before ? "-" : "+", off, t->name, t->size,
             t->base, t->defined, t->defined_line);
    return;
  }
  snprintf(buf, size, "global memory %s%s%p%s%zu (allocation %s%sof %zu bytes "
           "at %p%s)",
           t->name ? t->name : "", t->name ? " " : "", t->base,
           before ? "-" : "+", off,
           t->name ? t->name : "", t->name ? " " : "", t->size, t->base,
           where);
}

static CUEMU_NORETURN void fail(cuemu_worker *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(cuemu_worker *w, const char *fmt, ...) {
  char msg[1800];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cuemu__block_fail(w, CUEMU_CHECK_REPORT, "kernel %s: %s",
                    w->launch->kernel->name, msg);
}

static const char *access_word(int kind) {
  if (kind & CUEMU_ACCESS_ATOMIC)
    return "atomic access";
  return kind & CUEMU_ACCESS_WRITE ? "write" : "read";
}

/* Byte `i` of an access of `size` bytes to `t` was never written: reported
 * (once for each access site, cuemu_check_report.c), and the access goes
 * on, as with compute-sanitizer's initcheck. */
static void report_init(cuemu_worker *w, const target *t, size_t i,
                        size_t size, int kind, const void *pc) {
  int how = cuemu__check_report_begin(w->launch, CUEMU_REPORT_INIT,
                                      (uintptr_t)pc, 0);
  if (!how)
    return;
  char mem[1024], line[512];
  target at = *t;
  at.offset += i;
  describe(&at, mem, sizeof mem);
  cuemu__check_line_here(pc, line, sizeof line);
  cuemu_uint3 tid = cuemu__worker_thread_idx(w);
  cuemu__check_report(w->launch, how, line,
                      "initcheck: %s of uninitialised %s (%zu bytes, byte "
                      "%zu never written) by block (%u,%u,%u) thread "
                      "(%u,%u,%u) at %s",
                      access_word(kind), mem, size, i, w->block_idx.x,
                      w->block_idx.y, w->block_idx.z, tid.x, tid.y, tid.z,
                      line);
}

/* A race: reported (once for each pair of source lines and hazard,
 * cuemu_check_report.c), and the launch goes on, as with
 * compute-sanitizer's racecheck. */
static void report_race(cuemu_worker *w, const target *t, const char *hazard,
                        const char *first, uint32_t pblock, uint16_t ptid,
                        uint16_t psite, const char *second, uint32_t cblock,
                        uint16_t ctid, const void *pc) {
  int how = cuemu__check_report_begin(
      w->launch, CUEMU_REPORT_RACE, (uintptr_t)pc,
      (uintptr_t)psite ^ ((uintptr_t)(const void *)hazard << 16));
  if (!how)
    return;
  char mem[1024], a[96], b[96], la[512], lb[512], where[1100];
  describe(t, mem, sizeof mem);
  who(w->launch, pblock, ptid, a, sizeof a);
  who(w->launch, cblock, ctid, b, sizeof b);
  site_line(psite, NULL, la, sizeof la);
  site_line(0, pc, lb, sizeof lb);
  snprintf(where, sizeof where, "%s %s %s", hazard, la, lb);
  cuemu__check_report(w->launch, how, where,
                      "racecheck: race (%s) on %s: %s by %s at %s; %s by %s "
                      "at %s",
                      hazard, mem, first, a, la, second, b, lb);
}

/* How long await_stores waits for one store, in nanoseconds: far more
 * than a thread preempted between a check and its store stays off its
 * CPU; a thread that computes long without a memory access after its
 * store is given up on (and not waited for again). */
#define STORE_WAIT_NS 250000000ll

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Waits until no other worker's write recorded in global cells and not
 * stored yet (cuemu_check_fast's store_pending) overlaps the `size`
 * bytes at `bytes`, so that hold_race keeps them as that write left
 * them: without it, a thread preempted between its write's check and its
 * store lets a same-value write of another block look like one that
 * changed them (two blocks raising one flag). The caller may hold the
 * cells' stripe lock: the writer's next check clears its note before it
 * takes any lock. */
static void await_stores(block_state *b, const unsigned char *bytes,
                         size_t size) {
  uintptr_t lo = (uintptr_t)bytes, hi = lo + size;
  for (block_state *s = atomic_load(&states); s; s = s->next_state) {
    if (s == b)
      continue;
    long long deadline = 0;
    for (;;) {
      uintptr_t p = __atomic_load_n(&s->fast.store_pending, __ATOMIC_ACQUIRE);
      uintptr_t plo = p & (((uintptr_t)1 << CUEMU_CHECK_PENDING_SHIFT) - 1);
      uintptr_t phi = plo + (p >> CUEMU_CHECK_PENDING_SHIFT);
      if (!p || plo >= hi || phi <= lo ||
          (s == b->stuck_state && p == b->stuck_store))
        break;
      long long t = now_ns();
      if (!deadline)
        deadline = t + STORE_WAIT_NS;
      else if (t > deadline) {
        b->stuck_state = s;
        b->stuck_store = p;
        break;
      }
      sched_yield();
    }
  }
}

/* Holds back a race of a write of `size` bytes (`t` the access, `at` the
 * byte raced on) until its store is done (held_race): returns 1 when
 * held, 0 when it is to be reported now (a wide access, one whose address
 * is not known, or too many held already). Global memory that another
 * block changes meanwhile has its race reported, as before. Kernel code,
 * before the write's store. */
static int hold_race(block_state *b, const target *t, const target *at,
                     size_t size, const char *hazard, const char *first,
                     uint32_t pblock, uint16_t ptid, uint16_t psite,
                     const char *second, uint32_t cblock, uint16_t ctid,
                     const void *pc) {
  if (!t->base || size > HELD_BYTES)
    return 0;
  const unsigned char *bytes = (const unsigned char *)t->base + t->offset;
  /* A race held on the same bytes already: while they still hold what
   * they held before its write, that write stored the value they had, and
   * this one is settled with it; else that write changed them, and this
   * race (with the thread that wrote last) is reported now. */
  for (int i = 0; i < b->nheld; ++i)
    if (!b->held[i].cas && b->held[i].at == bytes &&
        b->held[i].nbytes == size)
      return memcmp(b->held[i].before, bytes, size) == 0;
  if (b->nheld == HELD_RACES)
    return 0;
  if (!t->shared)
    await_stores(b, bytes, size);
  held_race *h = &b->held[b->nheld++];
  *h = (held_race){*at,    bytes,  size,  {0},   hazard, first, second,
                   pblock, cblock, ptid,  psite, ctid,   0,     pc};
  memcpy(h->before, bytes, size);
  return 1;
}

/* Holds back the race of a plain read of `size` bytes (`t` the access,
 * `at` the byte raced on) with the atomic of thread `ptid` of block
 * `pblock` that wrote them last, until the reading thread `ctid` makes its
 * next access (held_race): returns 1 when held, 0 when it is to be
 * reported now. */
static int hold_read_race(block_state *b, const target *t, const target *at,
                          size_t size, uint32_t pblock, uint16_t ptid,
                          uint16_t psite, uint32_t cblock, uint16_t ctid,
                          const void *pc) {
  if (!t->base || b->nheld == HELD_RACES)
    return 0;
  const unsigned char *bytes = (const unsigned char *)t->base + t->offset;
  for (int i = 0; i < b->nheld; ++i)
    if (b->held[i].cas && b->held[i].at == bytes &&
        b->held[i].ctid == ctid && b->held[i].cblock == cblock)
      return 1;
  b->held[b->nheld++] = (held_race){
      *at,    bytes,  size, {0},  "RAW: read after write", "atomic", "read",
      pblock, cblock, ptid, psite, ctid, 1, pc};
  return 1;
}

/* Drops the reads held (hold_read_race) whose thread `ctid` of block
 * `cblock` now makes a compare-and-swap of the same bytes at `addr`. */
static void drop_checked_reads(block_state *b, const void *addr,
                               uint32_t cblock, uint16_t ctid) {
  int n = 0;
  for (int i = 0; i < b->nheld; ++i)
    if (!(b->held[i].cas && b->held[i].at == addr &&
          b->held[i].ctid == ctid && b->held[i].cblock == cblock))
      b->held[n++] = b->held[i];
  b->nheld = n;
}

/* Reports the races held in b (hold_race) whose bytes have changed
 * since, and forgets them all. */
static void settle_held(cuemu_worker *w, block_state *b) {
  int n = b->nheld;
  b->nheld = 0;
  for (int i = 0; i < n; ++i) {
    const held_race *h = &b->held[i];
    if (h->cas || memcmp(h->at, h->before, h->nbytes) != 0)
      report_race(w, &h->raced, h->hazard, h->first, h->pblock, h->ptid,
                  h->psite, h->second, h->cblock, h->ctid, h->pc);
  }
}

static CUEMU_NORETURN void report_mem(cuemu_worker *w, int kind, size_t size,
                                      const void *addr, const char *what,
                                      const target *t, const void *pc) {
  char mem[1024] = "", me[96], line[512];
  if (t)
    describe(t, mem, sizeof mem);
  cuemu_uint3 tid = cuemu__worker_thread_idx(w);
  snprintf(me, sizeof me, "block (%u,%u,%u) thread (%u,%u,%u)",
           w->block_idx.x, w->block_idx.y, w->block_idx.z, tid.x, tid.y,
           tid.z);
  cuemu__check_line_here(pc, line, sizeof line);
  fail(w, "memcheck: %s %s of %zu bytes at %p%s%s by %s at %s", what,
       access_word(kind), size, addr, t ? " in " : "", mem, me, line);
}

/* ---- Shadow updates ----------------------------------------------------- */

/* Whether an earlier access (block pblock, thread ptid, clock pseq, grid
 * generation pgen) is ordered before the current one. */
static int ordered(const block_state *b, uint32_t pblock, uint16_t ptid,
                   uint32_t pseq, uint16_t pgen, uint16_t ctid) {
  if (pblock != b->fast.block) {
    if (b->fast.gen > pgen)
      return 1;
    return atomic_load_explicit(&b->cl->fence[pblock % FENCE_SLOTS],
                                memory_order_relaxed) > pseq;
  }
  if (b->fast.block_seq > pseq)
    return 1;
  unsigned p = ptid - 1u, c = ctid - 1u;
  if (p / 32 == c / 32 && b->joint[p / 32][p % 32][c % 32] > pseq)
    return 1;
  for (unsigned level = 0; level < 5; ++level) {
    unsigned size = 64u << level;
    if (p / size == c / size && b->tile_seq[level][p / size] > pseq)
      return 1;
  }
  /* The earlier thread fenced after its access (and, presumably, then
   * raised a flag that this one waited for): so only when this thread has
   * made an atomic or volatile read since that fence, the read through
   * which it could have seen the flag. A fence orders nothing for a thread
   * that observes nothing after it: the threads of a block that skip the
   * wait and write the shared word the waiting thread wrote (a carry
   * cleared in the else branch of `if (threadIdx.x == 0) { wait; carry =
   * ...; __threadfence(); raise; }`) race with it, as compute-sanitizer's
   * racecheck reports. */
  return b->thread_fence[p] > pseq && b->thread_observe[c] >= b->thread_fence[p];
}

/* Whether an earlier read (block pblock, thread ptid, clock pseq) was
 * followed by a strong store of its thread (its block, for another block)
 * that the writing thread `ctid` may have waited for: a write that waited
 * for that store cannot be seen by the read, however relaxed the store
 * (CUB's tile states are stored relaxed; an in-place unique or select
 * overwrites tiles that earlier blocks read before they published their
 * counts). Within a block the writer must have made an atomic or volatile
 * read since the store (as for a fence, ordered()): a thread of the block
 * that polls nothing does not wait for it (a shared total read by thread 0
 * before the last writes of a scan, then a flag raised for the next block).
 * Writes are not published so. */
static int read_published(const block_state *b, uint32_t pblock, uint16_t ptid,
                          uint32_t pseq, uint16_t ctid) {
  if (pblock != b->fast.block)
    return atomic_load_explicit(&b->cl->strong[pblock % FENCE_SLOTS],
                                memory_order_relaxed) > pseq;
  return b->thread_strong[ptid - 1u] > pseq &&
         b->thread_observe[ctid - 1u] >= b->thread_strong[ptid - 1u];
}

/* Whether an access of `kind` (in shared memory or not) and a recorded one
 * (atomic, volatile) are both strong accesses, which never race (PTX's
 * memory model): two atomics, an atomic and a volatile access, or two
 * volatile accesses of global memory. Two volatile accesses of shared
 * memory race: warp-synchronous code through a volatile pointer races
 * since Volta, and compute-sanitizer's racecheck says so. */
static int strong_pair(int kind, int shared, int recorded_atomic,
                       int recorded_volatile) {
  if (kind & CUEMU_ACCESS_ATOMIC)
    return recorded_atomic || recorded_volatile;
  if (kind & CUEMU_ACCESS_VOLATILE)
    return recorded_atomic || (recorded_volatile && !shared);
  return 0;
}

/* Records a strong store (atomic, or volatile to global memory) by thread
 * `me`: it publishes the thread's and its block's earlier reads. */
static void note_strong_store(block_state *b, uint16_t me) {
  uint32_t s = ++b->fast.seq;
  b->thread_strong[me - 1u] = s;
  atomic_store_explicit(&b->cl->strong[b->fast.block % FENCE_SLOTS], s,
                        memory_order_relaxed);
}

/* Cells are locked in stripes of 16 cells (16 bytes of memory, or 16
 * granules), so that an aligned access of up to 16 bytes takes one lock
 * for all of its cells (an allocation's: the lock of its first granule,
 * which covers the granule's byte cells too). Kernel code takes the same
 * locks (cuemu_check_fast.h). */
#define LOCK_SHIFT CUEMU_CHECK_LOCK_SHIFT

static void lock_cell(const void *addr) {
  unsigned char *l = &locks[((uintptr_t)addr >> LOCK_SHIFT) % LOCKS];
  while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE))
    ;
}

static void unlock_cell(const void *addr) {
  __atomic_clear(&locks[((uintptr_t)addr >> LOCK_SHIFT) % LOCKS],
                 __ATOMIC_RELEASE);
}

/* Whether the `size` cells at `c` would all be treated alike: all of
 * another launch (cleared before use), or all equal. */
static int cells_alike(const cell *c, size_t size, uint16_t epoch) {
  if (c[0].epoch != epoch) {
    for (size_t i = 1; i < size; ++i)
      if (c[i].epoch == epoch)
        return 0;
    return 1;
  }
  for (size_t i = 1; i < size; ++i)
    if (memcmp(&c[i], &c[0], sizeof *c) != 0)
      return 0;
  return 1;
}

/* Whether all `size` bytes of a "written" map are set. */
static int all_written(const unsigned char *init, size_t size) {
  for (size_t i = 0; i < size; ++i)
    if (!init[i])
      return 0;
  return 1;
}

/* Whether a "written" map of `size` bytes has a run of at least `run`
 * unwritten bytes (all of them, when size < run). */
static int unwritten_run(const unsigned char *init, size_t size, size_t run) {
  size_t n = 0;
  for (size_t i = 0; i < size; ++i) {
    n = init[i] ? 0 : n + 1;
    if (n >= run || n == size)
      return 1;
  }
  return 0;
}

/* The interned number of access site `pc`, kept in the site cache that
 * kernel code reads (cuemu_check_fast.h). */
static uint16_t site_of(block_state *b, const void *pc) {
  unsigned slot = cuemu_check_fast_site_slot((uintptr_t)pc);
  if (pc && b->fast.site_pc[slot] == (uintptr_t)pc)
    return b->fast.site[slot];
  uint16_t site = cuemu__check_site(pc);
  if (site) {
    b->fast.site_pc[slot] = (uintptr_t)pc;
    b->fast.site[slot] = site;
  }
  return site;
}

/* Whether byte `i` of an access was never written: by the "written" map
 * `init` of global memory, or the cell `c` of shared memory. */
static int unwritten(const target *t, const cell *c, const unsigned char *init,
                     size_t i) {
  return !(t->shared ? (c->flags & CELL_INIT) : (!init || init[i]));
}

/* Checks and records an access of `size` bytes whose shadow starts at
 * `cells`, a cell per `gran` bytes (1, or GRANULE for the granules of an
 * allocation: `size` is then a multiple of it), and, for global memory,
 * whose "written" map starts at `init`. Global memory has no cells when
 * racecheck is off. `lock`: the address whose cell stripe lock the caller
 * holds (released here before a report), or NULL (the cells are the
 * worker's own). */
static void track(cuemu_worker *w, block_state *b, cell *cells,
                  unsigned char *init, const target *t, size_t size,
                  size_t gran, int kind, const void *pc, const void *lock) {
  unsigned checks = t->shared ? b->cl->shared_checks : b->cl->checks;
  int write = kind & CUEMU_ACCESS_WRITE, read = kind & CUEMU_ACCESS_READ;
  int atomic = kind & CUEMU_ACCESS_ATOMIC;
  /* The accessing thread, from threadIdx as the checked module's inline
   * path has it (cuemu_check_fast_race): the thunks and the scheduler keep
   * it the running thread's. */
  uint16_t me = (uint16_t)(threadIdx.x +
                           w->block_dim.x *
                               (threadIdx.y + w->block_dim.y * threadIdx.z) +
                           1);
  /* The stores of the races held at earlier accesses are done: settled
   * now, a write that changed its location is reported before anything
   * this access finds. A compare-and-swap first drops the reads of its
   * word that its thread made as its guess (hold_read_race). */
  if (b->nheld && (kind & CUEMU_ACCESS_CAS) && t->base)
    drop_checked_reads(b, (const char *)t->base + t->offset, b->fast.block,
                       me);
  if (b->nheld) {
    if (lock)
      unlock_cell(lock);
    settle_held(w, b);
    if (lock)
      lock_cell(lock);
  }
  /* Volatile accesses to global memory are strong (PTX's ld.volatile and
   * st.volatile are relaxed system-scope accesses): two of them never
   * race, which makes a flag polled through a volatile pointer across
   * blocks no race; what the flag publishes is ordered by the writer's
   * __threadfence() (ordered() below). Volatile shared memory is left as
   * it was: warp-synchronous code through a volatile pointer races since
   * Volta, and compute-sanitizer's racecheck says so. Atomics are strong
   * in either memory: an atomic and a plain access of one word race
   * unless ordered (PTX's memory model: only two strong accesses never
   * do), a plain clear of a counter that other threads add to with
   * atomicAdd; an atomic and a volatile access never race, in shared
   * memory too (a shared flag raised with atomicExch and polled through
   * a volatile pointer). The cells note both kinds (CELL_WATOMIC,
   * CELL_WVOLATILE and their read twins) in either memory;
   * strong_pair() says which pairs never race. */
  int is_volatile = kind & CUEMU_ACCESS_VOLATILE;
  int strong = atomic || (is_volatile && !t->shared);
  uint16_t site = 0;
  if (write && strong && !t->shared && (checks & CUEMU_CHECK_RACE))
    note_strong_store(b, me);
  /* A block copy (a struct assigned or passed whole: an access of a range
   * over 16 bytes) reads the struct's padding too, which a GPU's copy,
   * field by field, does not: its unwritten bytes are reported only where
   * 8 or more of them follow each other, more than padding can be
   * (copying a curandState that curand_init set, cuRAND's own idiom). */
  int init_read = (checks & CUEMU_CHECK_INIT) && read;
  if (init_read && init && !t->shared && (kind & CUEMU_ACCESS_RANGE) &&
      size > 16 && !unwritten_run(init, size, 8))
    init_read = 0;
  if (!cells) {
    /* initcheck of global memory only. */
    for (size_t i = 0; i < size; ++i) {
      if (init_read && init && !init[i] &&
          (atomic || !cuemu__check_site_in_shims(cuemu__check_site(pc)))) {
        report_init(w, t, i, size, kind, pc);
        init_read = 0; /* one report an access */
      }
      if (write && init)
        init[i] = 1;
    }
    return;
  }
  const uint16_t epoch = t->shared ? b->shared_epoch : b->cl->epoch;
  /* The bytes of an access usually have alike cells (a word is written and
   * read as a whole): then the loop below does to each cell what it does to
   * the first, and the first cell is done and copied. (A read of global
   * memory under initcheck also needs every byte written, which the loop
   * would check byte by byte.) */
  size_t ncells = size / gran, n = ncells;
  size_t bytes = init_read || (write && init) ? gran : 1;
  if (ncells > 1 && cells_alike(cells, ncells, epoch) &&
      !(init_read && !t->shared && init && !all_written(init, size)))
    n = 1;
  for (size_t i = 0; i < n; ++i) {
    cell *c = &cells[i];
    size_t byte = i * gran;
    if (c->epoch != epoch) {
      memset(c, 0, sizeof *c);
      c->epoch = epoch;
    }
    /* Each byte in turn: whether it was written, then (for the first byte
     * of the cell, the same for all of them) the race. The bytes after the
     * first matter only to initcheck's reads and to a "written" map. */
    for (size_t j = 0; j < bytes; ++j) {
      if (init_read && unwritten(t, c, init, byte + j) &&
          (atomic || /* the shims' atomics act for the user */
           !cuemu__check_site_in_shims(site ? site : (site = site_of(b, pc)))) &&
          !(t->shared && !atomic && cuemu__check_site_in_cccl(site))) {
        if (lock)
          unlock_cell(lock);
        report_init(w, t, byte + j, size, kind, pc);
        if (lock)
          lock_cell(lock);
        init_read = 0; /* one report an access */
      }
      if (write) {
        c->flags |= CELL_INIT;
        if (init && !init[byte + j])
          init[byte + j] = 1;
      }
      if (j)
        continue;
      if (!(checks & CUEMU_CHECK_RACE))
        continue;
      if (!site)
        site = site_of(b, pc);
      /* The shims' own accesses are dropped from reports (their
       * bookkeeping), except their atomics, which act for the user. */
      int mine_in_shims = !atomic && cuemu__check_site_in_shims(site);
      const char *word = atomic ? (write ? "atomic" : "atomic read")
                                : (write ? "write" : "read");
      /* Against the last write. */
      if (c->wtid &&
          !strong_pair(kind, t->shared, c->flags & CELL_WATOMIC,
                       c->flags & CELL_WVOLATILE) &&
          (c->wtid != me || c->wblock != b->fast.block) &&
          !ordered(b, c->wblock, c->wtid, c->wseq, c->wgen, me) &&
          !mine_in_shims &&
          ((c->flags & CELL_WATOMIC) ||
           !cuemu__check_site_in_shims(c->wsite))) {
        target at = *t;
        at.offset += byte;
        const char *first = c->flags & CELL_WATOMIC ? "atomic" : "write";
        /* A write's race waits for its store (hold_race); a plain read of
         * an atomic's word, for its thread's next compare-and-swap
         * (hold_read_race). */
        int held = write ? hold_race(b, t, &at, size, "WAW: write after write",
                                     first, c->wblock, c->wtid, c->wsite,
                                     word, b->fast.block, me, pc)
                         : !atomic && !is_volatile &&
                               (c->flags & CELL_WATOMIC) &&
                               hold_read_race(b, t, &at, size, c->wblock,
                                              c->wtid, c->wsite,
                                              b->fast.block, me, pc);
        if (!held) {
          if (lock)
            unlock_cell(lock);
          report_race(w, &at,
                      write ? "WAW: write after write"
                            : "RAW: read after write",
                      first, c->wblock, c->wtid, c->wsite, word,
                      b->fast.block, me, pc);
          if (lock)
            lock_cell(lock);
        }
      }
      if (write) {
        /* Against the last read; not for a compare-and-swap of the user:
         * a plain read of another thread may be the guess of its own
         * compare-and-swap loop, which checks it, and a read whose value
         * the thread uses otherwise is found against the atomics before
         * it (hold_read_race). With blocks running side by side, the
         * other threads' compare-and-swaps of a contended word fall
         * between a thread's guess and its own compare-and-swap. */
        if (c->rtid && !(kind & CUEMU_ACCESS_CAS) &&
            !strong_pair(kind, t->shared, c->flags & CELL_RATOMIC,
                         c->flags & CELL_RVOLATILE) &&
            (c->rtid != me || c->rblock != b->fast.block) &&
            !ordered(b, c->rblock, c->rtid, c->rseq, c->rgen, me) &&
            !read_published(b, c->rblock, c->rtid, c->rseq, me) &&
            !mine_in_shims &&
            ((c->flags & CELL_RATOMIC) ||
             !cuemu__check_site_in_shims(c->rsite))) {
          target at = *t;
          at.offset += byte;
          const char *first =
              c->flags & CELL_RATOMIC ? "atomic read" : "read";
          if (!hold_race(b, t, &at, size, "WAR: write after read", first,
                         c->rblock, c->rtid, c->rsite, word, b->fast.block,
                         me, pc)) {
            if (lock)
              unlock_cell(lock);
            report_race(w, &at, "WAR: write after read", first, c->rblock,
                        c->rtid, c->rsite, word, b->fast.block, me, pc);
            if (lock)
              lock_cell(lock);
          }
        }
        /* An atomic leaves a plain write of its own thread as the last
         * write: that write is ordered before this atomic, not before the
         * other threads' atomics that come after it (a counter cleared by
         * one thread that then adds to it, as the others do). Otherwise
         * the atomic is the last write: a later access of its thread is
         * ordered after every atomic before it, which it read (PTX's
         * observation order), as is the plain clear of a ticket counter
         * by the thread that drew the last ticket (the threadfence
         * reduction). */
        /* A compare-and-swap checks the value of its thread's own plain
         * read of the word, the guess of a compare-and-swap loop (whose
         * next guess is the value the compare-and-swap returns): the
         * read no longer counts, and the other threads' compare-and-swaps
         * do not race with it (hold_read_race, for the other order). */
        if ((kind & CUEMU_ACCESS_CAS) && c->rtid == me &&
            c->rblock == b->fast.block && !(c->flags & CELL_RSTRONG))
          c->rtid = 0;
        if (atomic && !(c->flags & CELL_WSTRONG) && c->wtid == me &&
            c->wblock == b->fast.block)
          continue;
        c->flags = (uint16_t)((c->flags & ~CELL_WSTRONG) |
                              (atomic            ? CELL_WATOMIC
                               : is_volatile ? CELL_WVOLATILE
                                                 : 0));
        c->wtid = me;
        c->wblock = b->fast.block;
        c->wseq = b->fast.seq;
        c->wgen = b->fast.gen;
        c->wsite = site;
      } else if (!c->rtid || (c->rtid == me && c->rblock == b->fast.block) ||
                 ordered(b, c->rblock, c->rtid, c->rseq, c->rgen, me) ||
                 (!atomic && !is_volatile && (c->flags & CELL_RSTRONG))) {
        /* A read concurrent with the recorded one keeps the older, so that
         * a later write by this thread still meets a reader it races
         * with; but a plain read takes the place of a strong one, which
         * no strong write races with. */
        c->flags = (uint16_t)((c->flags & ~CELL_RSTRONG) |
                              (atomic            ? CELL_RATOMIC
                               : is_volatile ? CELL_RVOLATILE
                                                 : 0));
        c->rtid = me;
        c->rblock = b->fast.block;
        c->rseq = b->fast.seq;
        c->rgen = b->fast.gen;
        c->rsite = site;
      }
    }
  }
  if (n < ncells) {
    for (size_t i = 1; i < ncells; ++i)
      cells[i] = cells[0];
    if (write && init)
      memset(init + gran, 1, size - gran);
  }
  /* An atomic or volatile read is the read through which its thread may
   * see a flag that another thread raised after a fence or a strong store
   * (ordered(), read_published()): it orders the thread's later accesses,
   * not itself. An atomic add of another thread to a word that a thread
   * read plainly and then fenced after, with no flag raised (a snapshot of
   * a counter), still races with that read: its own read of the word
   * observes no write made after the fence (PTX's memory model). */
  if (read && (atomic || is_volatile) && (checks & CUEMU_CHECK_RACE))
    b->thread_observe[me - 1u] = b->fast.seq;
  /* The store follows (await_stores); the caller's unlock publishes the
   * note with the cells. */
  if (write && !t->shared && t->base && (checks & CUEMU_CHECK_RACE))
    cuemu_check_fast_pending(&b->fast,
                             (uintptr_t)t->base + t->offset, size);
}

/* The cell that holds byte `off` of an allocation of `size` bytes with
 * cells `cells` in launch `epoch`: its granule's, or its own once the
 * granule is split. */
static cell *byte_cell(cell *cells, size_t size, size_t off, uint16_t epoch) {
  cell *g = &cells[off / GRANULE];
  if (g->epoch == epoch && (g->flags & CELL_SPLIT))
    return &cells[granules(size) + off];
  return g;
}

/* Gives granule `k` of an allocation of `size` bytes cells per byte, each
 * a copy of the granule's (empty when it was of another launch). */
static void split_granule(cell *cells, size_t size, size_t k,
                          uint16_t epoch) {
  cell *g = &cells[k], *bytes = &cells[granules(size) + k * GRANULE];
  if (g->epoch == epoch && (g->flags & CELL_SPLIT))
    return;
  for (size_t j = 0; j < GRANULE; ++j)
    if (g->epoch == epoch)
      bytes[j] = *g;
    else
      memset(&bytes[j], 0, sizeof bytes[j]);
  memset(g, 0, sizeof *g);
  g->epoch = epoch;
  g->flags = CELL_SPLIT;
}

/* Racecheck (and initcheck) of an access of `size` bytes at offset `off`
 * of memory of `total` bytes (an allocation, or a block's shared memory),
 * wholly inside it, with cells `cells` (granule cells, then byte cells;
 * those of `epoch` are current) and "written" map `init` (or NULL). An
 * access of whole granules none of which is split works on the granules;
 * any other splits the granules it touches for good (in this launch, or
 * block) and works on byte cells. Either way the cells say what a cell per
 * byte would. `locked`: whether the cells are shared between workers (an
 * allocation's) and so taken under their stripe lock. */
static inline __attribute__((always_inline)) void
track_granules(cuemu_worker *w, block_state *b, cell *cells, size_t total,
               uint16_t epoch, unsigned char *init, const target *t,
               size_t off, size_t size, int kind, const void *pc, int locked) {
  size_t first = off / GRANULE, last = (off + size - 1) / GRANULE;
  cell *lock = locked ? &cells[first] : NULL;
  if (lock)
    lock_cell(lock);
  int whole = size && off % GRANULE == 0 && size % GRANULE == 0;
  for (size_t k = first; whole && k <= last; ++k)
    if (cells[k].epoch == epoch && (cells[k].flags & CELL_SPLIT))
      whole = 0;
  if (whole) {
    track(w, b, &cells[first], init, t, size, GRANULE, kind, pc, lock);
  } else {
    for (size_t k = first; size && k <= last; ++k)
      split_granule(cells, total, k, epoch);
    track(w, b, &cells[granules(total) + off], init, t, size, 1, kind, pc,
          lock);
  }
  if (lock)
    unlock_cell(lock);
}

/* Racecheck (and initcheck) of an access of `size` bytes at offset `off`
 * of live allocation `r`, wholly inside it, with cells `cells`. */
static void track_region(cuemu_worker *w, block_state *b, region *r,
                         cell *cells, const target *t, size_t off, size_t size,
                         int kind, const void *pc) {
  track_granules(w, b, cells, r->a.size, b->cl->epoch,
                 r->info.init ? r->info.init + off : NULL, t, off, size, kind,
                 pc, 1);
}

/* The region holding `a`, or the nearest one below it. */
static region *region_at(cuemu_check_launch *cl, uintptr_t a) {
  size_t lo = 0, hi = cl->nregions;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)cl->regions[mid].a.base <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? &cl->regions[lo - 1] : NULL;
}

/* The cells of region `r`, made on first use; NULL when its shadow does
 * not fit in racecheck's memory (cuemu_check_race_budget.c), which leaves
 * it out of racecheck for the launch. */
static cell *region_cells(cuemu_check_launch *cl, region *r) {
  cell *c = atomic_load_explicit(&r->cells, memory_order_acquire);
  if (c || atomic_load_explicit(&r->unraced, memory_order_relaxed))
    return c;
  pthread_mutex_lock(&cl->lock);
  c = atomic_load(&r->cells);
  if (!c && !atomic_load(&r->unraced)) {
    /* Cells kept by the allocation from launch to launch cost their page
     * faults once; memory the checkers do not own gets cells for this
     * launch only. */
    size_t bytes = shadow_bytes(r->a.size);
    c = cuemu__check_alloc_cells(r->a.base, bytes);
    r->persistent = c != NULL;
    if (!c && cuemu__check_race_budget_take(bytes)) {
      c = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (c == MAP_FAILED) {
        c = NULL;
        cuemu__check_race_budget_give(bytes);
      }
    }
    if (c) {
      atomic_store_explicit(&r->cells, c, memory_order_release);
    } else {
      atomic_store(&r->unraced, 1);
      char site[480] = "";
      if (r->info.site)
        cuemu__check_alloc_line(r->info.site, r->info.callers, site,
                                sizeof site);
      cuemu__check_race_budget_note(r->a.base, r->a.size, bytes, site);
    }
  }
  pthread_mutex_unlock(&cl->lock);
  return c;
}

static void check_alignment(cuemu_worker *w, const void *addr, size_t size,
                            int kind, const target *t, const void *pc) {
  if (!(kind & CUEMU_ACCESS_RANGE) && size > 1 &&
      ((uintptr_t)addr & cuemu_check_fast_align_mask(size)) &&
      (w->launch->shadow_checks & CUEMU_CHECK_MEM))
    report_mem(w, kind, size, addr, "misaligned", t, pc);
}

static void shared_access(cuemu_worker *w, block_state *b, cell *cells,
                          size_t total, const char *name, size_t base_off,
                          size_t arr_size, size_t off, const void *addr,
                          size_t size, int kind, const void *pc) {
  /* base: the array's first byte, so that base + offset is the access's
   * (hold_race). */
  target t = {1,
              name,
              (const char *)addr - (off - base_off),
              off - base_off,
              arr_size,
              NULL,
              NULL,
              NULL,
              NULL,
              0};
  check_alignment(w, addr, size, kind, &t, pc);
  if ((w->launch->shadow_checks & CUEMU_CHECK_MEM) &&
      off - base_off + size > arr_size)
    report_mem(w, kind, size, addr, "out-of-bounds", &t, pc);
  /* Memcheck alone keeps no cells, nor does initcheck of global memory
   * only (CUEMU_CHECK_SHARED_INIT unset). */
  if (!cells ||
      !(b->cl->shared_checks & (CUEMU_CHECK_RACE | CUEMU_CHECK_INIT)))
    return;
  if (off - base_off + size > arr_size)
    size = arr_size - (off - base_off);
  track_granules(w, b, cells, total, b->shared_epoch, NULL, &t, off, size,
                 kind, pc, 0);
}

/* Narrows the gap [*lo, *hi) around `a` so that it leaves out [x0, x1);
 * returns 0 when `a` itself lies in [x0, x1). */
static int gap_exclude(uintptr_t a, uintptr_t *lo, uintptr_t *hi, uintptr_t x0,
                       uintptr_t x1) {
  if (x0 >= x1)
    return 1;
  if (x1 <= a) {
    if (x1 > *lo)
      *lo = x1;
  } else if (x0 > a) {
    if (x0 < *hi)
      *hi = x0;
  } else {
    return 0;
  }
  return 1;
}

/* The mapping of live allocation `r` (cuemu__allocation_mapping_range): 1
 * with its addresses in [*lo, *hi), or 0. */
static int mapping_around(const region *r, uintptr_t *lo, uintptr_t *hi) {
  return r->a.state == CUEMU_RT_MEMORY_LIVE &&
         r->a.kind != CUEMU_RT_MEMORY_SYMBOL &&
         cuemu__allocation_mapping_range(r->a.base, r->a.size, lo, hi);
}

/* Whether address `a` lies in the mapping around live allocation `r`. */
static int in_mapping_around(const region *r, uintptr_t a) {
  uintptr_t lo, hi;
  return mapping_around(r, &lo, &hi) && lo <= a && a < hi;
}

/* After an access at `a` found no allocation at or below it (`r`, the last
 * one starting at or below `a`, or NULL): remembers the range around `a`
 * that holds none and is not near one or near shared memory. */
static void note_gap(block_state *b, uintptr_t a, const region *r) {
  const cuemu_check_launch *cl = b->cl;
  const region *next = r ? r + 1 : cl->regions;
  uintptr_t lo = 0, hi = UINTPTR_MAX;
  if (r) {
    lo = (uintptr_t)r->a.base + r->a.size + REDZONE;
    if (lo < (uintptr_t)r->a.base) /* wrapped */
      return;
  }
  if (next < cl->regions + cl->nregions)
    hi = (uintptr_t)next->a.base > REDZONE ? (uintptr_t)next->a.base - REDZONE
                                          : 0;
  /* Nor the mappings around the two allocations (their guards, the rest
   * of their last pages), where every access is out of bounds. */
  uintptr_t map_lo, map_hi;
  if (r && mapping_around(r, &map_lo, &map_hi) && map_hi > lo)
    lo = map_hi;
  if (next < cl->regions + cl->nregions &&
      mapping_around(next, &map_lo, &map_hi) && map_lo < hi)
    hi = map_lo;
  if (!(lo <= a && a < hi))
    return;
  /* (Nor the device heap: a range that held it would skip a use after
   * free() there, depending on where the heap was mapped.) */
  uintptr_t heap_lo, heap_hi;
  cuemu__device_heap_range(&heap_lo, &heap_hi);
  if (!gap_exclude(a, &lo, &hi, heap_lo, heap_hi) ||
      !gap_exclude(a, &lo, &hi, (uintptr_t)b->dyn,
                   (uintptr_t)b->dyn + b->dyn_size) ||
      !gap_exclude(a, &lo, &hi, (uintptr_t)b->dyn_own,
                   (uintptr_t)b->dyn_own + b->dyn_own_size) ||
      !gap_exclude(a, &lo, &hi, (uintptr_t)b->tls,
                   (uintptr_t)b->tls + b->tls_size + 64))
    return;
  b->fast.skip_lo[SKIP_GAPS + 1] = b->fast.skip_lo[SKIP_GAPS];
  b->fast.skip_span[SKIP_GAPS + 1] = b->fast.skip_span[SKIP_GAPS];
  b->fast.skip_lo[SKIP_GAPS] = lo;
  b->fast.skip_span[SKIP_GAPS] = hi - lo;
}

/* What a report says of byte `offset` of tracked allocation `r`. */
static target region_target(const region *r, size_t offset) {
  const cuemu__array_shape *array =
      r->info.array.element ? &r->info.array : NULL;
  target t = {0,          r->info.name,   r->a.base,       offset,
              r->a.size,  r->info.site,   r->info.callers, array,
              r->defined, r->defined_line};
  return t;
}

/* An access whose first byte lies in tracked allocation `r`. */
static void region_access(cuemu_worker *w, block_state *b, region *r,
                          const void *addr, size_t size, int kind,
                          const void *pc) {
  uintptr_t a = (uintptr_t)addr;
  unsigned checks = w->launch->shadow_checks;
  cuemu_check_launch *cl = b->cl;
  target t = region_target(r, a - (uintptr_t)r->a.base);
  if (r->a.flags & CUEMU__ALLOCATION_SHADOW) {
    if (checks & CUEMU_CHECK_MEM)
      report_mem(w, kind, size, addr,
                 "host memory (no device allocation: the host object of a "
                 "__device__ or __constant__ variable, whose address host "
                 "code took; cudaGetSymbolAddress gives the device's):",
                 NULL, pc);
    return;
  }
  if (r->a.state != CUEMU_RT_MEMORY_LIVE) {
    if (checks & CUEMU_CHECK_MEM)
      report_mem(w, kind, size, addr, "use after cudaFree:", &t, pc);
    return;
  }
  /* A stream-ordered allocation whose stream has not reached its
   * cudaMallocAsync: this kernel is not ordered after the allocation
   * (compute-sanitizer's use-before-alloc). */
  if ((checks & CUEMU_CHECK_MEM) &&
      (r->a.flags & CUEMU__ALLOCATION_UNREACHED))
    report_mem(w, kind, size, addr,
               "use before alloc (a kernel not ordered after the "
               "cudaMallocAsync that made it):",
               &t, pc);
  if ((checks & CUEMU_CHECK_MEM) && r->foreign >= 0) {
    char what[160];
    snprintf(what, sizeof what,
             "device %d without peer access to device %d "
             "(cudaDeviceEnablePeerAccess):",
             cl->device, r->foreign);
    report_mem(w, kind, size, addr, what, &t, pc);
  }
  if ((checks & CUEMU_CHECK_MEM) && r->limited) {
    int access = cuemu__access_limits_of(addr, cl->device);
    int writes = (kind & CUEMU_ACCESS_WRITE) != 0;
    if (access == CUEMU_MEM_ACCESS_NONE ||
        (writes && access == CUEMU_MEM_ACCESS_READ)) {
      char what[200];
      snprintf(what, sizeof what,
               "device %d has %s access to this memory (cuMemSetAccess, "
               "cudaMemPoolSetAccess, accessDescs):",
               cl->device, access == CUEMU_MEM_ACCESS_NONE ? "no" : "read-only");
      report_mem(w, kind, size, addr, what, &t, pc);
    }
  }
  check_alignment(w, addr, size, kind, &t, pc);
  if ((checks & CUEMU_CHECK_MEM) && t.offset + size > r->a.size)
    report_mem(w, kind, size, addr, "out-of-bounds", &t, pc);
  if (!(checks & (CUEMU_CHECK_RACE | CUEMU_CHECK_INIT)))
    return;
  if (t.offset + size > r->a.size)
    size = r->a.size - t.offset;
  cell *cells = checks & CUEMU_CHECK_RACE ? region_cells(cl, r) : NULL;
  if (cells)
    track_region(w, b, r, cells, &t, t.offset, size, kind, pc);
  else if ((checks & CUEMU_CHECK_INIT) && r->info.init)
    track(w, b, NULL, r->info.init + t.offset, &t, size, 1, kind, pc, NULL);
}

static __attribute__((noinline)) void
access_slow(cuemu_worker *w, block_state *b, const void *addr, size_t size,
            int kind, const void *pc);

void cuemu__check_access(const void *addr, size_t size, int kind,
                         const void *pc) {
  cuemu_worker *w = cuemu__worker_self;
  /* A range of no bytes (memset(end, 0, 0), as cp.async's zero fill past
   * a full copy makes) touches no memory, even just past an object. */
  if (!w || !w->in_kernel || !w->launch->shadow_checks || size == 0)
    return;
  block_state *b = current_state(w);
  if (!b)
    return;
  uintptr_t a = (uintptr_t)addr;
  if (cuemu_check_fast_access(&b->fast, a, size, kind, pc))
    return;
  /* Racecheck's accesses to the allocations touched last go straight to
   * their cells: nothing that access_slow looks at first (shared memory,
   * the device heap) lies in a tracked allocation. */
  if (w->launch->shadow_checks & CUEMU_CHECK_RACE)
    for (int i = 0; i < 2; ++i) {
      region *r = b->hot[i];
      if (r && a - (uintptr_t)r->a.base < r->a.size) {
        region_access(w, b, r, addr, size, kind, pc);
        return;
      }
    }
  /* The rest in a function of its own, so that this one, which runs for
   * every access of a checked kernel, saves few registers. */
  access_slow(w, b, addr, size, kind, pc);
}

/* What checked kernel code calls when cuemu_check_fast.h did not decide an
 * access. */
void cuemu_check_access(const void *addr, size_t size, int kind,
                        const void *pc) {
  cuemu__check_access(addr, size, kind, pc);
  /* CUEMU_CHECK_STORE_DELAY_US widens the window between a write's check
   * and its store, as a preempted thread does: a test's means to make the
   * rare case certain (tests/programs/checkers/same_value_flag_workers.cu). */
  static int delay_us = -1;
  if (delay_us < 0) {
    const char *e = getenv("CUEMU_CHECK_STORE_DELAY_US");
    delay_us = e ? atoi(e) : 0;
  }
  if (delay_us > 0 && (kind & CUEMU_ACCESS_WRITE))
    usleep((useconds_t)delay_us);
}

static void access_slow(cuemu_worker *w, block_state *b, const void *addr,
                        size_t size, int kind, const void *pc) {
  uintptr_t a = (uintptr_t)addr;
  unsigned checks = w->launch->shadow_checks;
  /* The dynamic shared buffer. */
  if (b->dyn && a - (uintptr_t)b->dyn < b->dyn_size) {
    set_hot_shared(b, b->dyn, b->dyn_size, b->dyn, b->dyn_cells,
                   b->cl->shared_checks);
    shared_access(w, b, b->dyn_cells, b->dyn_size, "extern __shared__ buffer",
                  0, b->dyn_size, a - (uintptr_t)b->dyn, addr, size, kind, pc);
    return;
  }
  /* Static shared arrays. */
  if (b->tls && a - (uintptr_t)b->tls < b->tls_size) {
    size_t off = a - (uintptr_t)b->tls;
    const cuemu_check_symbol *near = NULL;
    const cuemu_check_symbol *s = b->hot_sym;
    const cuemu_check_module *mod = b->cl->mod;
    /* The array accessed last, if it is the one the lookup below would
     * find: it holds `off` and no later array starts at or before it. */
    if (!s || off - s->offset >= s->size ||
        (s + 1 < mod->syms + mod->nsyms && s[1].offset <= off)) {
      s = cuemu__check_symbol_at(mod, off, &near);
      b->hot_sym = s;
    }
    if (s && !s->shared)
      return;
    if (!s) {
      if (near && (checks & CUEMU_CHECK_MEM)) {
        target t = {1,          near->name, NULL, off - near->offset,
                    near->size, NULL,       NULL, NULL,
                    NULL,       0};
        report_mem(w, kind, size, addr, "out-of-bounds", &t, pc);
      }
      return;
    }
    set_hot_shared(b, b->tls + s->offset, s->size, b->tls, b->tls_cells,
                   b->cl->shared_checks);
    shared_access(w, b, b->tls_cells, b->tls_size, s->name, s->offset, s->size,
                  off, addr, size, kind, pc);
    return;
  }
  /* The device heap (malloc and new in kernel code), with its own shadow
   * (cuemu_device_heap.c). */
  {
    void *hbase;
    size_t hsize;
    const void *hsite;
    int v = cuemu__device_heap_classify(a, size, &hbase, &hsize, &hsite);
    if (v != CUEMU_HEAP_OUTSIDE) {
      target t = {0,     "(device heap)",
                  hbase, a - (uintptr_t)hbase,
                  hsize, hsite,
                  NULL,  NULL,
                  NULL,  0};
      unsigned char *init;
      void *hcells;
      /* A misaligned access is that first, as in any other memory: a GPU
       * faults on its address before it could reach past the block. */
      check_alignment(w, addr, size, kind, &t, pc);
      if (v != CUEMU_HEAP_INSIDE && (checks & CUEMU_CHECK_MEM))
        report_mem(w, kind, size, addr,
                   v == CUEMU_HEAP_FREED ? "use after free:" : "out-of-bounds",
                   &t, pc);
      else if (v == CUEMU_HEAP_INSIDE &&
               (checks & (CUEMU_CHECK_RACE | CUEMU_CHECK_INIT)) &&
               cuemu__device_heap_shadow(
                   a, checks & CUEMU_CHECK_RACE ? sizeof(cell) : 0, &init,
                   &hcells)) {
        if (hcells)
          lock_cell(hcells);
        track(w, b, hcells, init, &t, size, 1, kind, pc, hcells);
        if (hcells)
          unlock_cell(hcells);
      }
      return;
    }
  }
  /* Tracked allocations. */
  cuemu_check_launch *cl = b->cl;
  region *r = region_at(cl, a);
  if (r && r != b->hot[0] && r->a.size &&
      !(r->a.flags & CUEMU__ALLOCATION_SHADOW))
    set_hot(b, r, checks);
  if (r && a - (uintptr_t)r->a.base < (r->a.size ? r->a.size : 1)) {
    region_access(w, b, r, addr, size, kind, pc);
    return;
  }
  note_gap(b, a, r);
  if (!(checks & CUEMU_CHECK_MEM))
    return;
  /* The thread's own stack (its local memory) is no allocation's redzone,
   * though its top may lie just below an allocation mapped above it. */
  if (cuemu__kernel_stack_holds(w, addr))
    return;
  /* Near a buffer, or in the mapping around it, but in none: out of
   * bounds. (A tracked device variable's neighbours in its module's data
   * are other variables, not a redzone.) */
  if (r && r->a.state == CUEMU_RT_MEMORY_LIVE &&
      r->a.kind != CUEMU_RT_MEMORY_SYMBOL &&
      (a - ((uintptr_t)r->a.base + r->a.size) < REDZONE ||
       in_mapping_around(r, a))) {
    target t = region_target(r, a - (uintptr_t)r->a.base);
    report_mem(w, kind, size, addr, "out-of-bounds", &t, pc);
  }
  region *next = r ? r + 1 : (cl->nregions ? cl->regions : NULL);
  if (next && next < cl->regions + cl->nregions &&
      next->a.state == CUEMU_RT_MEMORY_LIVE &&
      next->a.kind != CUEMU_RT_MEMORY_SYMBOL &&
      ((uintptr_t)next->a.base - a <= REDZONE || in_mapping_around(next, a))) {
    target t = region_target(next, 0);
    report_mem(w, kind, size, addr, "out-of-bounds (before the start)", &t,
               pc);
  }
  if (b->dyn == b->dyn_own + REDZONE &&
      a - ((uintptr_t)b->dyn_own) < b->dyn_own_size) {
    target t = {1,           "extern __shared__ buffer",
                NULL,        a - (uintptr_t)b->dyn,
                b->dyn_size, NULL,
                NULL,        NULL,
                NULL,        0};
    report_mem(w, kind, size, addr, "out-of-bounds", &t, pc);
  }
  /* Past the end of the thread-local block of a program is its thread
   * control block, which kernel code never reaches; past a loaded
   * module's lies heap memory that may be anything. */
  if (b->tls && b->cl->mod->tls_modid == 1 &&
      a - ((uintptr_t)b->tls + b->tls_size) < 64) {
    const cuemu_check_symbol *near = NULL;
    cuemu__check_symbol_at(b->cl->mod, a - (uintptr_t)b->tls, &near);
    if (near) {
      target t = {
          1,          near->name, NULL, a - (uintptr_t)b->tls - near->offset,
          near->size, NULL,       NULL, NULL,
          NULL,       0};
      report_mem(w, kind, size, addr, "out-of-bounds", &t, pc);
    }
  }
}

/* ---- Texture reads --------------------------------------------------------- */

/* initcheck of a texture fetch: a texel read from bytes that nothing
 * wrote is reported (once for each fetch's line), in the words of
 * report_init, and the fetch goes on. Returns 1 when it reported. */
static int texture_read_unwritten(cuemu_worker *w, const region *r,
                                  size_t off, size_t size, const char *what,
                                  const char *file, int line) {
  const unsigned char *init = r->info.init;
  size_t i = 0;
  while (i < size && init[off + i])
    ++i;
  if (i == size)
    return 0;
  int how = cuemu__check_report_begin(w->launch, CUEMU_REPORT_INIT,
                                      (uintptr_t)(const void *)file,
                                      (uintptr_t)line);
  if (!how)
    return 1;
  target t = region_target(r, off + i);
  char mem[1024], where[640];
  describe(&t, mem, sizeof mem);
  snprintf(where, sizeof where, "%s:%d", file ? file : "?", line);
  cuemu_uint3 tid = cuemu__worker_thread_idx(w);
  cuemu__check_report(w->launch, how, where,
                      "initcheck: %s read of uninitialised %s (%zu bytes, "
                      "byte %zu never written) by block (%u,%u,%u) thread "
                      "(%u,%u,%u) at %s",
                      what, mem, size, i, w->block_idx.x, w->block_idx.y,
                      w->block_idx.z, tid.x, tid.y, tid.z, where);
  return 1;
}

void cuemu__check_texture_read(const void *addr, size_t size, const char *what,
                               const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel ||
      !(w->launch->shadow_checks & (CUEMU_CHECK_RACE | CUEMU_CHECK_INIT)))
    return;
  block_state *b = current_state(w);
  if (!b)
    return;
  uintptr_t a = (uintptr_t)addr;
  region *r = region_at(b->cl, a);
  if (!r || r->a.state != CUEMU_RT_MEMORY_LIVE ||
      a - (uintptr_t)r->a.base >= r->a.size)
    return;
  size_t off = a - (uintptr_t)r->a.base;
  if (size > r->a.size - off)
    size = r->a.size - off;
  if ((b->cl->checks & CUEMU_CHECK_INIT) && r->info.init &&
      texture_read_unwritten(w, r, off, size, what, file, line))
    return;
  if (!(w->launch->shadow_checks & CUEMU_CHECK_RACE))
    return;
  cell *cells = region_cells(b->cl, r);
  if (!cells)
    return;
  const cell *lock = &cells[off / GRANULE];
  lock_cell(lock);
  for (size_t i = 0; i < size; ++i) {
    const cell *c = byte_cell(cells, r->a.size, off + i, b->cl->epoch);
    if (c->epoch != b->cl->epoch || !c->wtid)
      continue;
    uint32_t wblock = c->wblock;
    uint16_t wtid = c->wtid, wsite = c->wsite;
    unlock_cell(lock);
    /* Reported once for each fetch's line; the fetch goes on. */
    int how = cuemu__check_report_begin(w->launch, CUEMU_REPORT_TEXTURE,
                                        (uintptr_t)(const void *)file,
                                        (uintptr_t)line);
    if (!how)
      return;
    target t = region_target(r, off + i);
    char mem[1024], writer[96], wline[512];
    describe(&t, mem, sizeof mem);
    who(w->launch, wblock, wtid, writer, sizeof writer);
    site_line(wsite, NULL, wline, sizeof wline);
    cuemu_uint3 tid = cuemu__worker_thread_idx(w);
    char where[640];
    snprintf(where, sizeof where, "%s:%d %s", file ? file : "?", line, wline);
    cuemu__check_report(
        w->launch, how, where,
        "racecheck: %s by block (%u,%u,%u) thread (%u,%u,%u) at %s:%d "
        "reads %s, written in this launch by %s at %s (CUDA leaves a "
        "texture read of memory written in the same launch undefined)",
        what, w->block_idx.x, w->block_idx.y, w->block_idx.z, tid.x, tid.y,
        tid.z, file ? file : "?", line, mem, writer, wline);
    return;
  }
  unlock_cell(lock);
}
