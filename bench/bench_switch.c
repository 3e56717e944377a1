/*
 * bench_switch.c: the cost of the bare register switch, for context when
 * reading the reduction benchmark. N coroutines on pooled-style guarded
 * stacks pass control round-robin with cuemu__ctx_switch (the same code as
 * libcuemu's; this file is compiled with emulator/context/); nothing else
 * runs between switches. Prints "switch_ns N VALUE" for each N given.
 *
 * Usage: bench_switch N [N...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "context/cuemu_context.h"

#define GUARD (68u * 1024u)
#define STACK (64u * 1024u)
#define SWITCHES 4000000L

static cuemu_ctx *contexts;
static cuemu_ctx main_ctx;
static int count, current;
static long rounds;

static void entry(void) {
  int me = current;
  for (long r = 0; r < rounds; ++r) {
    int next = me + 1 == count ? 0 : me + 1;
    current = next;
    cuemu__ctx_switch(&contexts[me], &contexts[next]);
  }
  cuemu__ctx_switch(&contexts[me], &main_ctx);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  for (int a = 1; a < argc; ++a) {
    count = atoi(argv[a]);
    if (count < 2)
      continue;
    rounds = SWITCHES / count;
    contexts = calloc((size_t)count, sizeof *contexts);
    cuemu_ctx_template *tpl = calloc((size_t)count, sizeof *tpl);
    unsigned char **maps = calloc((size_t)count, sizeof *maps);
    for (int i = 0; i < count; ++i) {
      maps[i] = mmap(NULL, GUARD + STACK, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (maps[i] == MAP_FAILED ||
          mprotect(maps[i] + GUARD, STACK, PROT_READ | PROT_WRITE) != 0 ||
          cuemu__ctx_template_init(&tpl[i], maps[i] + GUARD,
                                   STACK - (size_t)(i % 64) * 64, entry) != 0)
        return 1;
      cuemu__ctx_reset(&contexts[i], &tpl[i]);
    }
    /* One round to touch every stack, then the timed ones. */
    current = 0;
    double t0 = now();
    cuemu__ctx_switch(&main_ctx, &contexts[0]);
    double t1 = now();
    printf("switch_ns %d %.2f\n", count,
           (t1 - t0) * 1e9 / ((double)rounds * count));
    for (int i = 0; i < count; ++i)
      munmap(maps[i], GUARD + STACK);
    free(maps);
    free(tpl);
    free(contexts);
  }
  return 0;
}
