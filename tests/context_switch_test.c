/*
 * context_switch_test.c: a standalone test of the context layer
 * (emulator/context/), for every backend and architecture.
 *
 * It needs only libc, so that tests/context_aarch64.sh can build it with a
 * cross compiler and run it under user-mode qemu. Build it with the context
 * sources and a config.h that defines CUEMU_CONTEXT_UCONTEXT, for example:
 *
 *   cc -O2 -I<dir of config.h> -Iemulator/context tests/context_switch_test.c \
 *      emulator/context/cuemu_context.c emulator/context/cuemu_context_<arch>.S
 *
 * What it checks:
 *   - the backend name matches the architecture and CUEMU_CONTEXT_UCONTEXT;
 *   - N coroutines on mmap()ed, guarded stacks, switched among round-robin
 *     many times, keep integer and floating-point values held in local
 *     variables (the compiler keeps them in callee-saved registers);
 *   - an assembly probe loads a distinct pattern into every callee-saved
 *     register (x86-64: rbx rbp r12-r15; aarch64: x19-x29 and d8-d15),
 *     switches away and back, and finds every register and the stack
 *     pointer intact;
 *   - the stack pointer is aligned to 16 bytes at every call inside a
 *     coroutine and lies inside the coroutine's stack;
 *   - the floating-point rounding mode is switched with the context where
 *     the backend promises it (aarch64 asm: FPCR; ucontext: always), and a
 *     new context starts in round-to-nearest;
 *   - cuemu__ctx_reset() makes a used stack enter its entry function again,
 *     even after the stack's contents were overwritten;
 *   - the entry function's return address is not the entry function itself,
 *     and the unwinder (backtrace()) stops after a few frames inside a
 *     coroutine, so that gdb's backtraces end cleanly.
 *
 * It prints "context switch test: N passed, 0 failed" and exits 0, or
 * describes each failure and exits 1.
 */
#define _GNU_SOURCE
#include "cuemu_context.h"

#include <execinfo.h>
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NCORO 8
#define ROUNDS 2000
#define STACK_BYTES (128 * 1024)

/* ---- Assembly probes ------------------------------------------------ */

/*
 * The probes are top-level assembly because this test must stay one C file
 * that builds with nothing but a C compiler and libc.
 *
 * uintptr_t probe_caller_sp(void) returns the stack pointer of its caller at
 * the call, which the ABI requires to be a multiple of 16.
 *
 * void probe_regs(switch_fn sw, cuemu_ctx *from, cuemu_ctx *to,
 *                 uint64_t seed, uint64_t *out) fills every callee-saved
 * register with seed + k, calls sw(from, to), and when it is resumed stores
 * the callee-saved registers to out[0 .. PROBE_REGS - 1], the stack pointer
 * after the call to out[PROBE_REGS] and the one before it to
 * out[PROBE_REGS + 1]. */

typedef void (*switch_fn)(cuemu_ctx *from, cuemu_ctx *to);
uintptr_t probe_caller_sp(void);
void probe_regs(switch_fn sw, cuemu_ctx *from, cuemu_ctx *to, uint64_t seed,
                uint64_t *out);

#if defined(__x86_64__)
#define PROBE_REGS 6 /* rbx rbp r12 r13 r14 r15 */
#define PROBE_FP_FIRST PROBE_REGS
static const char *const probe_names[] = {"rbx", "rbp", "r12",
                                          "r13", "r14", "r15"};
__asm__(".pushsection .text\n"
        ".globl probe_caller_sp\n"
        ".type probe_caller_sp, @function\n"
        "probe_caller_sp:\n"
        "  leaq 8(%rsp), %rax\n"
        "  ret\n"
        ".size probe_caller_sp, .-probe_caller_sp\n"
        ".globl probe_regs\n"
        ".type probe_regs, @function\n"
        "probe_regs:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  pushq %r8\n" /* out; seven pushes leave rsp 16-byte aligned */
        "  movq %rdi, %rax\n"
        "  movq %rsi, %rdi\n"
        "  movq %rdx, %rsi\n"
        "  leaq 1(%rcx), %rbx\n"
        "  leaq 2(%rcx), %rbp\n"
        "  leaq 3(%rcx), %r12\n"
        "  leaq 4(%rcx), %r13\n"
        "  leaq 5(%rcx), %r14\n"
        "  leaq 6(%rcx), %r15\n"
        "  movq %rsp, 56(%r8)\n"
        "  call *%rax\n"
        "  movq (%rsp), %r8\n"
        "  movq %rbx, 0(%r8)\n"
        "  movq %rbp, 8(%r8)\n"
        "  movq %r12, 16(%r8)\n"
        "  movq %r13, 24(%r8)\n"
        "  movq %r14, 32(%r8)\n"
        "  movq %r15, 40(%r8)\n"
        "  movq %rsp, 48(%r8)\n"
        "  popq %r8\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size probe_regs, .-probe_regs\n"
        ".popsection\n");
#elif defined(__aarch64__)
#define PROBE_REGS 19 /* x19-x29, d8-d15 */
#define PROBE_FP_FIRST 11
static const char *const probe_names[] = {
    "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
    "x29", "d8",  "d9",  "d10", "d11", "d12", "d13", "d14", "d15"};
__asm__(".pushsection .text\n"
        ".globl probe_caller_sp\n"
        ".type probe_caller_sp, %function\n"
        "probe_caller_sp:\n"
        "  mov x0, sp\n"
        "  ret\n"
        ".size probe_caller_sp, .-probe_caller_sp\n"
        ".globl probe_regs\n"
        ".type probe_regs, %function\n"
        "probe_regs:\n"
        "  stp x29, x30, [sp, #-176]!\n"
        "  stp x19, x20, [sp, #16]\n"
        "  stp x21, x22, [sp, #32]\n"
        "  stp x23, x24, [sp, #48]\n"
        "  stp x25, x26, [sp, #64]\n"
        "  stp x27, x28, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n"
        "  stp d10, d11, [sp, #112]\n"
        "  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  str x4, [sp, #160]\n"
        "  mov x5, sp\n"
        "  str x5, [x4, #160]\n"
        "  mov x16, x0\n"
        "  mov x0, x1\n"
        "  mov x1, x2\n"
        "  add x19, x3, #1\n"
        "  add x20, x3, #2\n"
        "  add x21, x3, #3\n"
        "  add x22, x3, #4\n"
        "  add x23, x3, #5\n"
        "  add x24, x3, #6\n"
        "  add x25, x3, #7\n"
        "  add x26, x3, #8\n"
        "  add x27, x3, #9\n"
        "  add x28, x3, #10\n"
        "  add x29, x3, #11\n"
        "  add x9, x3, #12\n"
        "  fmov d8, x9\n"
        "  add x9, x3, #13\n"
        "  fmov d9, x9\n"
        "  add x9, x3, #14\n"
        "  fmov d10, x9\n"
        "  add x9, x3, #15\n"
        "  fmov d11, x9\n"
        "  add x9, x3, #16\n"
        "  fmov d12, x9\n"
        "  add x9, x3, #17\n"
        "  fmov d13, x9\n"
        "  add x9, x3, #18\n"
        "  fmov d14, x9\n"
        "  add x9, x3, #19\n"
        "  fmov d15, x9\n"
        "  blr x16\n"
        "  ldr x4, [sp, #160]\n"
        "  stp x19, x20, [x4, #0]\n"
        "  stp x21, x22, [x4, #16]\n"
        "  stp x23, x24, [x4, #32]\n"
        "  stp x25, x26, [x4, #48]\n"
        "  stp x27, x28, [x4, #64]\n"
        "  str x29, [x4, #80]\n"
        "  stp d8, d9, [x4, #88]\n"
        "  stp d10, d11, [x4, #104]\n"
        "  stp d12, d13, [x4, #120]\n"
        "  stp d14, d15, [x4, #136]\n"
        "  mov x5, sp\n"
        "  str x5, [x4, #152]\n"
        "  ldp x19, x20, [sp, #16]\n"
        "  ldp x21, x22, [sp, #32]\n"
        "  ldp x23, x24, [sp, #48]\n"
        "  ldp x25, x26, [sp, #64]\n"
        "  ldp x27, x28, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n"
        "  ldp d10, d11, [sp, #112]\n"
        "  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  ldp x29, x30, [sp], #176\n"
        "  ret\n"
        ".size probe_regs, .-probe_regs\n"
        ".popsection\n");
#else
#error "context_switch_test.c has probes for x86-64 and aarch64 only"
#endif

/* ---- Bookkeeping ---------------------------------------------------- */

static int g_failures; /* failed checks in the current test */
static int g_passed, g_failed;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      if (g_failures++ < 20) {                                                 \
        fprintf(stderr, "  FAIL %s:%d: ", __FILE__, __LINE__);                 \
        fprintf(stderr, __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                   \
      }                                                                        \
    }                                                                          \
  } while (0)

static void run_test(const char *name, void (*fn)(void)) {
  g_failures = 0;
  fn();
  if (g_failures == 0) {
    ++g_passed;
    printf("  ok   %s\n", name);
  } else {
    ++g_failed;
    printf("  FAIL %s (%d failed checks)\n", name, g_failures);
  }
  fflush(stdout);
}

/* ---- Coroutines ----------------------------------------------------- */

struct coro {
  unsigned char *map; /* the mapping, guard page first */
  size_t map_size;
  unsigned char *lo; /* the usable stack [lo, hi) */
  unsigned char *hi;
  cuemu_ctx_template tpl;
  cuemu_ctx ctx;
  int entries; /* times the entry function was entered */
  int done;
  uint64_t result; /* checksum of the work, compared with reference() */
};

static struct coro g_coro[NCORO];
static cuemu_ctx g_main_ctx;
static int g_current;          /* the coroutine that runs */
static int g_pass;             /* which run of the coroutines (seeds differ) */
static void (*g_body)(int id); /* what a coroutine does once entered */

static void do_switch(cuemu_ctx *from, cuemu_ctx *to) {
  cuemu__ctx_switch(from, to);
}

static void check_sp_here(int id, const char *where) {
  uintptr_t sp = probe_caller_sp();
  CHECK(sp % 16 == 0, "coroutine %d: sp %#lx not 16-byte aligned %s", id,
        (unsigned long)sp, where);
  CHECK(sp > (uintptr_t)g_coro[id].lo && sp <= (uintptr_t)g_coro[id].hi,
        "coroutine %d: sp %#lx outside its stack [%p, %p) %s", id,
        (unsigned long)sp, (void *)g_coro[id].lo, (void *)g_coro[id].hi, where);
}

static void check_probe(const uint64_t *out, uint64_t seed, const char *who,
                        int id) {
  for (int k = 0; k < PROBE_REGS; ++k)
    CHECK(out[k] == seed + (uint64_t)k + 1,
          "%s %d: %s is %#llx after a switch, expected %#llx", who, id,
          probe_names[k], (unsigned long long)out[k],
          (unsigned long long)(seed + (uint64_t)k + 1));
  CHECK(out[PROBE_REGS] == out[PROBE_REGS + 1],
        "%s %d: sp is %#llx after a switch, was %#llx", who, id,
        (unsigned long long)out[PROBE_REGS],
        (unsigned long long)out[PROBE_REGS + 1]);
}

/* Hands the processor to the next coroutine, or to main after the last one,
 * alternating between a plain switch and one through the register probe. */
static void __attribute__((noinline)) yield_from(int id, int round) {
  cuemu_ctx *to = id + 1 < NCORO ? &g_coro[id + 1].ctx : &g_main_ctx;
  g_current = id + 1;
  if (round % 2 == 0) {
    cuemu__ctx_switch(&g_coro[id].ctx, to);
  } else {
    uint64_t out[PROBE_REGS + 2];
    uint64_t seed = ((uint64_t)(id + 1) << 40) ^ ((uint64_t)round << 20) ^
                    ((uint64_t)g_pass << 8);
    probe_regs(do_switch, &g_coro[id].ctx, to, seed, out);
    check_probe(out, seed, "coroutine", id);
  }
  CHECK(g_current == id, "coroutine %d resumed while %d was due", id,
        g_current);
  check_sp_here(id, "after a switch");
}

/* The entry function of every coroutine. It never returns: when the body is
 * done it leaves through a scratch context that is never resumed. */
static void coro_entry(void) {
  int id = g_current;
  struct coro *c = &g_coro[id];
  ++c->entries;
  check_sp_here(id, "at entry");
  g_body(id);
  c->done = 1;
  g_current = id + 1;
  cuemu_ctx scratch;
  cuemu__ctx_switch(&scratch,
                    id + 1 < NCORO ? &g_coro[id + 1].ctx : &g_main_ctx);
  fprintf(stderr, "coroutine %d resumed after it finished\n", id);
  abort();
}

static void *map_stack(struct coro *c) {
  long page = sysconf(_SC_PAGESIZE);
  c->map_size = STACK_BYTES + (size_t)page;
  c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (c->map == MAP_FAILED)
    return NULL;
  if (mprotect(c->map, (size_t)page, PROT_NONE) != 0)
    return NULL;
  c->lo = c->map + page;
  c->hi = c->map + c->map_size;
  return c->lo;
}

static void setup_coroutines(void) {
  for (int i = 0; i < NCORO; ++i) {
    struct coro *c = &g_coro[i];
    memset(c, 0, sizeof *c);
    if (map_stack(c) == NULL) {
      perror("mmap");
      exit(1);
    }
    /* Odd coroutines get a stack whose top is not 16-byte aligned, as the
     * stack pool's cache colouring produces. */
    size_t size = (size_t)(c->hi - c->lo) - (i % 2 ? 24 : 0);
    int rc = cuemu__ctx_template_init(&c->tpl, c->lo, size, coro_entry);
    CHECK(rc == 0, "cuemu__ctx_template_init failed for coroutine %d", i);
    if (rc != 0) {
      fprintf(stderr, "cannot go on without contexts\n");
      exit(1);
    }
    cuemu__ctx_reset(&c->ctx, &c->tpl);
  }
}

/* Runs every coroutine until it is done, main taking one turn per round. */
static void run_all(void (*body)(int id)) {
  g_body = body;
  for (int i = 0; i < NCORO; ++i)
    g_coro[i].done = 0;
  for (int guard = 0; guard < ROUNDS + 10; ++guard) {
    int all = 1;
    for (int i = 0; i < NCORO; ++i)
      all &= g_coro[i].done;
    if (all)
      return;
    g_current = 0;
    if (guard % 2 == 0) {
      cuemu__ctx_switch(&g_main_ctx, &g_coro[0].ctx);
    } else {
      uint64_t out[PROBE_REGS + 2];
      uint64_t seed = 0x5a5a000000000000ull ^ ((uint64_t)guard << 16);
      probe_regs(do_switch, &g_main_ctx, &g_coro[0].ctx, seed, out);
      check_probe(out, seed, "main, round", guard);
    }
    CHECK(g_current == NCORO, "main resumed while coroutine %d was due",
          g_current);
  }
  CHECK(0, "coroutines did not finish in %d rounds", ROUNDS + 10);
}

/* ---- Test: backend name --------------------------------------------- */

static void test_backend(void) {
  const char *want =
#if CUEMU_CONTEXT_UCONTEXT
      "ucontext";
#elif defined(__x86_64__)
      "asm-x86_64";
#else
      "asm-aarch64";
#endif
  CHECK(strcmp(cuemu__ctx_backend(), want) == 0, "backend is %s, expected %s",
        cuemu__ctx_backend(), want);
}

/* ---- Test: callee-saved registers survive round-robin switches ------ */

/* The same recurrence as worker(), without switches. The two must stay in
 * step; worker() keeps twelve integers and ten doubles live across each
 * call of yield_from(), more than the caller-saved registers could hold. */
#define WORK_STATE(seed)                                                       \
  uint64_t a0 = (seed) + 1, a1 = (seed) + 2, a2 = (seed) + 3, a3 = (seed) + 4, \
           a4 = (seed) + 5, a5 = (seed) + 6, a6 = (seed) + 7, a7 = (seed) + 8, \
           a8 = (seed) + 9, a9 = (seed) + 10, a10 = (seed) + 11,               \
           a11 = (seed) + 12;                                                  \
  double f0 = (double)(seed) + 0.5, f1 = f0 * 1.25, f2 = f0 * 1.5,             \
         f3 = f0 * 1.75, f4 = f0 * 2.25, f5 = f0 * 2.5, f6 = f0 * 2.75,        \
         f7 = f0 * 3.25, f8 = f0 * 3.5, f9 = f0 * 3.75
#define WORK_STEP(r)                                                           \
  do {                                                                         \
    a0 = a0 * 6364136223846793005ull + a11;                                    \
    a1 ^= a0 >> 7;                                                             \
    a2 += a1 * 3;                                                              \
    a3 ^= a2 << 5;                                                             \
    a4 += a3 ^ (uint64_t)(r);                                                  \
    a5 -= a4;                                                                  \
    a6 ^= a5 >> 3;                                                             \
    a7 += a6 * 7;                                                              \
    a8 ^= a7 << 11;                                                            \
    a9 += a8;                                                                  \
    a10 ^= a9 >> 13;                                                           \
    a11 += a10 | 1;                                                            \
    f0 = f0 * 0.999 + f9;                                                      \
    f1 = f1 * 0.998 + f0;                                                      \
    f2 = f2 * 0.997 - f1;                                                      \
    f3 = f3 * 0.996 + f2;                                                      \
    f4 = f4 * 0.995 - f3;                                                      \
    f5 = f5 * 0.994 + f4;                                                      \
    f6 = f6 * 0.993 - f5;                                                      \
    f7 = f7 * 0.992 + f6;                                                      \
    f8 = f8 * 0.991 - f7;                                                      \
    f9 = f9 * 0.990 + f8 * 1e-3;                                               \
  } while (0)
#define WORK_SUM()                                                             \
  (a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7 ^ a8 ^ a9 ^ a10 ^ a11 ^               \
   (uint64_t)(int64_t)(f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9))

static uint64_t work_seed(int id) {
  return ((uint64_t)id << 32) + (uint64_t)g_pass * 977 + 12345;
}

static uint64_t __attribute__((noinline)) reference(uint64_t seed) {
  WORK_STATE(seed);
  for (int r = 0; r < ROUNDS; ++r)
    WORK_STEP(r);
  return WORK_SUM();
}

static void __attribute__((noinline)) worker(int id) {
  WORK_STATE(work_seed(id));
  for (int r = 0; r < ROUNDS; ++r) {
    WORK_STEP(r);
    yield_from(id, r);
  }
  g_coro[id].result = WORK_SUM();
}

static void test_round_robin(void) {
  run_all(worker);
  for (int i = 0; i < NCORO; ++i) {
    CHECK(g_coro[i].entries == g_pass + 1,
          "coroutine %d entered %d times, expected %d", i, g_coro[i].entries,
          g_pass + 1);
    uint64_t want = reference(work_seed(i));
    CHECK(g_coro[i].result == want,
          "coroutine %d: values kept in locals across %d switches give "
          "%#llx, expected %#llx",
          i, ROUNDS, (unsigned long long)g_coro[i].result,
          (unsigned long long)want);
  }
}

/* ---- Test: reset and reuse ------------------------------------------ */

static void test_reset_reuse(void) {
  /* Every coroutine finished; overwrite the top of each stack, where the
   * first frame lies, then make it ready again and run everything anew with
   * other seeds. */
  for (int i = 0; i < NCORO; ++i) {
    struct coro *c = &g_coro[i];
    memset(c->hi - 4096, 0xa5, 4096);
    cuemu__ctx_reset(&c->ctx, &c->tpl);
  }
  ++g_pass;
  test_round_robin();
  /* A third time, resetting without overwriting. */
  for (int i = 0; i < NCORO; ++i)
    cuemu__ctx_reset(&g_coro[i].ctx, &g_coro[i].tpl);
  ++g_pass;
  test_round_robin();
}

/* ---- Test: the floating-point rounding mode ------------------------- */

#if CUEMU_CONTEXT_UCONTEXT || defined(__aarch64__)
#define SWITCHES_ROUNDING 1
#else
/* The x86-64 register switch leaves MXCSR and the x87 control word alone
 * by design (see cuemu_context_x86_64.S). */
#define SWITCHES_ROUNDING 0
#endif

static const int rounding_modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD,
                                     FE_TOWARDZERO};

static int __attribute__((noinline)) rounding_probe(void) {
  /* 1 + 2^-60 rounds up only when rounding upwards; -(1 + 2^-60) rounds
   * down only when rounding downwards; 1 - 2^-60 stays below one only when
   * rounding down or towards zero. */
  volatile double one = 1.0, tiny = 0x1p-60;
  double up = one + tiny, down = -one - tiny, below = one - tiny;
  if (up > 1.0)
    return FE_UPWARD;
  if (down < -1.0)
    return FE_DOWNWARD;
  if (below < 1.0)
    return FE_TOWARDZERO;
  return FE_TONEAREST;
}

static void rounding_body(int id) {
  CHECK(fegetround() == FE_TONEAREST && rounding_probe() == FE_TONEAREST,
        "coroutine %d starts with rounding mode %d, not to nearest", id,
        fegetround());
  int mine = rounding_modes[id % 4];
  for (int r = 0; r < 64; ++r) {
    if (r == 1)
      fesetround(mine);
    int want = r == 0 ? FE_TONEAREST : mine;
    yield_from(id, r);
    CHECK(fegetround() == want && rounding_probe() == want,
          "coroutine %d, round %d: rounding mode %d (behaves as %d) after a "
          "switch, expected %d",
          id, r, fegetround(), rounding_probe(), want);
  }
  fesetround(FE_TONEAREST);
}

static void test_rounding(void) {
  if (!SWITCHES_ROUNDING) {
    printf("  (this backend does not switch the rounding mode; only the "
           "reset is checked)\n");
  }
  for (int i = 0; i < NCORO; ++i)
    cuemu__ctx_reset(&g_coro[i].ctx, &g_coro[i].tpl);
  ++g_pass;
  if (SWITCHES_ROUNDING) {
    run_all(rounding_body);
    CHECK(fegetround() == FE_TONEAREST && rounding_probe() == FE_TONEAREST,
          "main's rounding mode changed to %d", fegetround());
  } else {
    run_all(worker);
  }
}

/* ---- Test: unwinding stops cleanly inside a coroutine --------------- */

static void *g_entry_return;
static int g_frames;
static void *g_frame_pcs[64];

static void __attribute__((noinline)) unwind_leaf(void) {
  g_frames = backtrace(g_frame_pcs, 64);
}

static void __attribute__((noinline)) unwind_entry(void) {
  g_entry_return = __builtin_extract_return_addr(__builtin_return_address(0));
  /* Unwind only when the return address is plausible: a bogus one can
   * lead the unwinder to read unmapped memory. */
  if (g_entry_return != (void *)unwind_entry)
    unwind_leaf();
  g_current = NCORO;
  cuemu_ctx scratch;
  cuemu__ctx_switch(&scratch, &g_main_ctx);
  abort();
}

static void test_unwind(void) {
  struct coro c;
  memset(&c, 0, sizeof c);
  if (map_stack(&c) == NULL) {
    perror("mmap");
    exit(1);
  }
  g_entry_return = NULL;
  g_frames = -1;
  CHECK(cuemu__ctx_template_init(&c.tpl, c.lo, (size_t)(c.hi - c.lo),
                                 unwind_entry) == 0,
        "cuemu__ctx_template_init failed");
  cuemu__ctx_reset(&c.ctx, &c.tpl);
  cuemu__ctx_switch(&g_main_ctx, &c.ctx);
  CHECK(g_current == NCORO, "the unwind coroutine did not come back");
  CHECK(g_entry_return != (void *)unwind_entry,
        "the entry function returns to itself (its link register or return "
        "address is the entry point), so debuggers unwind into garbage");
  CHECK(g_entry_return != NULL, "the entry function has no return address");
  if (g_frames >= 0) {
    /* unwind_leaf, unwind_entry, and what the context layer put below the
     * entry (glibc's start-context function or a trampoline): a handful. */
    CHECK(g_frames >= 2 && g_frames <= 8,
          "backtrace() inside a coroutine found %d frames, expected 2-8",
          g_frames);
    for (int i = 1; i < g_frames; ++i)
      CHECK(g_frame_pcs[i] != g_frame_pcs[i - 1],
            "backtrace() repeats frame %d (%p)", i, g_frame_pcs[i]);
  }
  munmap(c.map, c.map_size);
}

int main(void) {
  printf("context switch test: backend %s, %d coroutines, %d rounds\n",
         cuemu__ctx_backend(), NCORO, ROUNDS);
  run_test("backend name", test_backend);
  setup_coroutines();
  run_test("round-robin switches keep callee-saved registers",
           test_round_robin);
  run_test("reset and reuse of stacks", test_reset_reuse);
  run_test("rounding mode per context", test_rounding);
  run_test("unwinding inside a coroutine", test_unwind);
  for (int i = 0; i < NCORO; ++i)
    munmap(g_coro[i].map, g_coro[i].map_size);
  printf("context switch test: %d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
