/*
 * cuemu_printf.c: printf() of kernel code (see cuemu_printf.h).
 *
 * A GPU's warp runs a printf call for all its lanes at once: two calls in
 * a row print every lane's first line, in lane order, before any second
 * line. cuemu runs a warp's lanes one after another between collectives,
 * so each launch's records are put in that order when it ends: in each
 * run of records that one warp of a block made (between another warp's
 * records of that block; other blocks' records keep their places), and in
 * each step of the warp (between two completions of a barrier of the block
 * or of a collective of the warp), the lanes' records are lined up as the
 * warp runs its calls: each lane's sequence of call lines is aligned with
 * those of the lanes before it (a longest common subsequence), the calls
 * they share print together, in lane order, and the calls only some lanes
 * make go between them, where those lanes made them; two such runs between
 * the same shared calls (divergent branches) go by their line. So a call
 * that only lane 0 makes (`if (tid == 0) printf(...)`) comes before the
 * next call that all make, a loop's later rounds, which only some lanes
 * run, come before the line after the loop, and a guarded call inside a
 * loop stays in its round. Each lane's own lines keep their order. A step
 * too long to align (more than ALIGN_CELLS pairs of lines) is merged more
 * simply: the lanes' next records of the smallest line first.
 */
#include "core/cuemu_printf.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_device.h>

#include "base/cuemu_config.h"
#include "core/cuemu_worker.h"

/* A captured call: the format (a literal of the kernel's module, alive
 * until the launch ends) and the arguments, the strings of %s copied. */
typedef struct cuemu_printf_record {
  struct cuemu_printf_record *next;
  size_t bytes;          /* what it takes of the FIFO */
  const char *format;
  int nargs;
  cuemu_printf_arg *args;
  char **strings;        /* per argument: its copy when printed with %s */
  /* Who made it: the block's linear index (UNPLACED outside a block's
   * thread) and the thread's warp and lane in the block. */
  unsigned long long block;
  unsigned warp, lane;
  unsigned long long phase; /* the block's and the warp's step at the call
                               (cuemu_worker.h): ascending in a lane */
  int line;                 /* the call's line */
} cuemu_printf_record;

#define UNPLACED (~0ull)

static atomic_int used;

int cuemu__printf_used(void) { return atomic_load(&used); }

void cuemu__printf_forget(void) { atomic_store(&used, 0); }

static void record_free(cuemu_printf_record *r) {
  for (int i = 0; r->strings && i < r->nargs; ++i)
    free(r->strings[i]);
  free(r->strings);
  free(r->args);
  free(r);
}

void cuemu__printf_fifo_init(cuemu_printf_fifo *fifo, size_t limit) {
  memset(fifo, 0, sizeof *fifo);
  pthread_mutex_init(&fifo->lock, NULL);
  fifo->limit = limit;
}

/* One conversion of a format: [start, end) is "%...c"; `conversion` is its
 * last character, `stars` the arguments its * width and precision take. */
typedef struct spec {
  const char *start, *end;
  char conversion;
  int stars;
} spec;

/* The next conversion at or after `p` ("%%" is not one); NULL when none.
 * A conversion cut short by the end of the string ends there. */
static const char *next_spec(const char *p, spec *out) {
  for (; *p; ++p) {
    if (*p != '%')
      continue;
    if (p[1] == '%') {
      ++p;
      continue;
    }
    const char *q = p + 1;
    out->stars = 0;
    while (*q && strchr("-+ #0", *q))
      ++q;
    if (*q == '*') {
      out->stars++;
      ++q;
    }
    while (*q >= '0' && *q <= '9')
      ++q;
    if (*q == '.') {
      ++q;
      if (*q == '*') {
        out->stars++;
        ++q;
      }
      while (*q >= '0' && *q <= '9')
        ++q;
    }
    while (*q && strchr("hlLqjzt", *q))
      ++q;
    out->start = p;
    out->conversion = *q;
    out->end = *q ? q + 1 : q;
    return out->end;
  }
  return NULL;
}

void cuemu_ptx_vprintf(void **__cuemu_slots) {
  const char *format = NULL;
  const unsigned char *buffer = NULL;
  memcpy(&format, __cuemu_slots[1], sizeof format);
  memcpy(&buffer, __cuemu_slots[2], sizeof buffer);
  cuemu_printf_arg args[64];
  int n = 0;
  size_t offset = 0;
  spec s;
  for (const char *p = format; p && n < 64 && (p = next_spec(p, &s)) != NULL;) {
    /* A * width or precision is an int; the conversion's argument comes
     * after C's promotions: 8 bytes for a long, a double and a pointer. */
    for (int k = 0; k <= s.stars && n < 64; ++k) {
      int star = k < s.stars, wide = 0;
      for (const char *m = s.start; !star && m < s.end; ++m)
        wide |= strchr("ljztqL", *m) != NULL;
      int kind = CUEMU_PRINTF_SIGNED;
      if (!star && strchr("ouxXc", s.conversion))
        kind = CUEMU_PRINTF_UNSIGNED;
      else if (!star && strchr("fFeEgGaA", s.conversion))
        kind = CUEMU_PRINTF_DOUBLE;
      else if (!star && strchr("sp", s.conversion))
        kind = CUEMU_PRINTF_POINTER;
      size_t size = kind == CUEMU_PRINTF_DOUBLE ||
                            kind == CUEMU_PRINTF_POINTER || wide
                        ? 8
                        : 4;
      offset = (offset + size - 1) & ~(size - 1);
      cuemu_printf_arg *a = &args[n++];
      a->kind = kind;
      a->value.u = 0;
      if (buffer && size == 8)
        memcpy(&a->value, buffer + offset, 8);
      else if (buffer && kind == CUEMU_PRINTF_SIGNED) {
        int v;
        memcpy(&v, buffer + offset, 4);
        a->value.i = v;
      } else if (buffer) {
        unsigned v;
        memcpy(&v, buffer + offset, 4);
        a->value.u = v;
      }
      offset += size;
    }
  }
  int r = cuemu_printf_capture("(PTX vprintf)", 0, format, n, args);
  if (__cuemu_slots[0])
    memcpy(__cuemu_slots[0], &r, sizeof r);
}

int cuemu_printf_capture(const char *file, int line, const char *format,
                         int nargs, const cuemu_printf_arg *args) {
  cuemu_worker *w = cuemu__worker_self;
  if (!format)
    return -1;
  atomic_store(&used, 1);
  /* The user's memory is read below, in the kernel thread, so that a bad
   * pointer (the format, a string of %s) faults now and the fault names
   * the user's call. */
  if (w) {
    w->call_file = file;
    w->call_line = line;
  }
  size_t bytes = strlen(format) + 1 + (size_t)nargs * sizeof *args;
  cuemu_printf_record *r = calloc(1, sizeof *r);
  if (!r) {
    if (w)
      w->call_file = NULL;
    return -1;
  }
  r->format = format;
  r->nargs = nargs;
  r->block = UNPLACED;
  if (w && w->in_kernel && w->launch) {
    cuemu_uint3 t = cuemu__worker_thread_idx(w), b = w->block_idx;
    cuemu_dim3 g = w->launch->grid;
    unsigned id = t.x + w->block_dim.x * (t.y + w->block_dim.y * t.z);
    r->block = b.x + (unsigned long long)g.x * (b.y + (unsigned long long)g.y * b.z);
    r->warp = id / 32;
    r->lane = id % 32;
    r->phase = (unsigned long long)w->block_phase << 32 | w->warp_phase[id / 32];
    r->line = line;
  }
  r->args = calloc((size_t)nargs + 1, sizeof *r->args);
  r->strings = calloc((size_t)nargs + 1, sizeof *r->strings);
  int parsed = r->args && r->strings;
  if (parsed)
    memcpy(r->args, args, (size_t)nargs * sizeof *args);
  /* The strings of %s are copied now. */
  int next = 0;
  spec s;
  for (const char *p = format; parsed && (p = next_spec(p, &s)) != NULL;) {
    next += s.stars;
    if (next >= nargs)
      break;
    if (s.conversion == 's' && args[next].kind == CUEMU_PRINTF_POINTER &&
        args[next].value.p) {
      const char *str = args[next].value.p;
      size_t n = strlen(str);
      r->strings[next] = malloc(n + 1);
      if (r->strings[next])
        memcpy(r->strings[next], str, n + 1);
      bytes += n + 1;
    }
    next++;
  }
  if (w)
    w->call_file = NULL;
  cuemu_printf_fifo *fifo = w && w->launch ? w->launch->printf_fifo : NULL;
  r->bytes = bytes;
  if (!parsed || !fifo || bytes > fifo->limit) {
    record_free(r);
    return parsed ? nargs : -1;
  }
  /* The FIFO is circular, as CUDA's: when it is full, the oldest records
   * make room for the new one. */
  pthread_mutex_lock(&fifo->lock);
  while (fifo->first && fifo->used + bytes > fifo->limit) {
    cuemu_printf_record *old = fifo->first;
    fifo->first = old->next;
    if (!fifo->first)
      fifo->last = NULL;
    fifo->used -= old->bytes;
    fifo->dropped++;
    record_free(old);
  }
  fifo->used += bytes;
  fifo->kept++;
  if (fifo->last)
    fifo->last->next = r;
  else
    fifo->first = r;
  fifo->last = r;
  pthread_mutex_unlock(&fifo->lock);
  /* CUDA: the number of arguments parsed, -1 on an error. */
  return parsed ? nargs : -1;
}

/* Prints one conversion with the argument at `a` (and the * values before
 * it). */
static void print_spec(const spec *s, const cuemu_printf_record *r, int a,
                       int first_star) {
  char piece[128];
  size_t len = (size_t)(s->end - s->start);
  if (len >= sizeof piece)
    len = sizeof piece - 1;
  memcpy(piece, s->start, len);
  piece[len] = '\0';
  int star[2] = {0, 0};
  for (int k = 0; k < s->stars; ++k)
    star[k] = (int)r->args[first_star + k].value.i;
  const cuemu_printf_arg *v = &r->args[a];
#define PRINT(value)                                                           \
  (s->stars == 2   ? printf(piece, star[0], star[1], value)                    \
   : s->stars == 1 ? printf(piece, star[0], value)                             \
                   : printf(piece, value))
  switch (s->conversion) {
  case 'd': case 'i':
    if (strpbrk(piece, "lqjzt"))
      PRINT((long long)v->value.i);
    else
      PRINT((int)v->value.i);
    break;
  case 'u': case 'o': case 'x': case 'X': case 'c':
    if (strpbrk(piece, "lqjzt"))
      PRINT((unsigned long long)v->value.u);
    else
      PRINT((unsigned)v->value.u);
    break;
  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a':
  case 'A':
    if (strchr(piece, 'L'))
      PRINT((long double)v->value.d);
    else
      PRINT(v->value.d);
    break;
  case 's':
    PRINT(r->strings[a] ? r->strings[a] : "(null)");
    break;
  case 'p':
    PRINT(v->value.p);
    break;
  default:
    fputs(piece, stdout);
    break;
  }
#undef PRINT
}

/* Formats a record as printf would have, from the captured values. */
static void print_record(const cuemu_printf_record *r) {
  const char *p = r->format;
  int next = 0;
  spec s;
  const char *text = p;
  while ((p = next_spec(text, &s)) != NULL) {
    /* The text before the conversion, with %% as %. */
    for (const char *c = text; c < s.start; ++c) {
      putchar(*c);
      if (c[0] == '%' && c[1] == '%')
        ++c;
    }
    int first_star = next;
    next += s.stars;
    if (next < r->nargs)
      print_spec(&s, r, next++, first_star);
    else
      fwrite(s.start, 1, (size_t)(s.end - s.start), stdout);
    text = p;
  }
  for (const char *c = text; *c; ++c) {
    putchar(*c);
    if (c[0] == '%' && c[1] == '%')
      ++c;
  }
}

/* The records of the last launch, kept until the host synchronises, as
 * CUDA keeps them in its FIFO. */
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu_printf_record *pending_first, *pending_last;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* What the process waits for at exit before it prints the last records:
 * the launches still running on the streams' execution threads
 * (cuemu__printf_wait_at_exit). */
static void (*exit_wait)(void);

/* At exit, every launch made before it has printed, once: the process
 * waits for the launches still running (a program that returns from main,
 * or calls exit(), right after its last launch lost their lines when the
 * launch ended after this flush), then prints what waits. */
static void flush_at_exit(void) {
  if (exit_wait)
    exit_wait();
  cuemu__printf_flush_pending();
}

/* A child of fork() prints none of the records waiting in its parent: they
 * are the parent's, which prints them (the child printed them a second
 * time at its exit). The lock may have been held by another thread. */
static void forget_after_fork(void) {
  pthread_mutex_init(&pending_lock, NULL);
  pending_first = pending_last = NULL;
}

static void register_exit(void) {
  atexit(flush_at_exit);
  pthread_atfork(NULL, NULL, forget_after_fork);
}

void cuemu__printf_wait_at_exit(void (*wait)(void)) {
  exit_wait = wait;
  pthread_once(&exit_once, register_exit);
}

/* A record of a warp's run, and where it goes. */
typedef struct placed {
  unsigned long long phase; /* the warp's step */
  unsigned lane;
  int line;
  size_t at;            /* its place in the launch's order */
  cuemu_printf_record *r;
} placed;

/* Each step's records, lane by lane, each lane's in the order made. */
static int by_lane(const void *a, const void *b) {
  const placed *x = a, *y = b;
  if (x->phase != y->phase)
    return x->phase < y->phase ? -1 : 1;
  if (x->lane != y->lane)
    return x->lane < y->lane ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* Merges the records of one step, lane by lane in run[0..m), into out:
 * the lanes' next records of the smallest line first, in lane order. */
static void merge_step(const placed *run, size_t m, placed *out) {
  size_t head[32], end[32];
  for (unsigned lane = 0; lane < 32; ++lane)
    head[lane] = end[lane] = 0;
  for (size_t k = 0; k < m; ++k) {
    unsigned lane = run[k].lane;
    if (head[lane] == end[lane])
      head[lane] = k;
    end[lane] = k + 1;
  }
  for (size_t n = 0; n < m;) {
    int first = 0, any = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (head[lane] < end[lane] && (!any || run[head[lane]].line < first)) {
        first = run[head[lane]].line;
        any = 1;
      }
    for (unsigned lane = 0; lane < 32; ++lane)
      if (head[lane] < end[lane] && run[head[lane]].line == first)
        out[n++] = run[head[lane]++];
  }
}

/* The most cells of the table that aligns one lane's lines with a step's
 * calls so far (4 bytes each). */
#define ALIGN_CELLS ((size_t)1 << 22)
#define NO_RECORD ((size_t)-1)

/* The calls of a step lined up so far: call k's line, and its records (the
 * first, the last, and each record's next in chain). */
typedef struct calls {
  int *line;
  size_t *first, *last;
  size_t n;
} calls;

static int calls_alloc(calls *c, size_t cap) {
  c->line = malloc(cap * sizeof *c->line);
  c->first = malloc(cap * sizeof *c->first);
  c->last = malloc(cap * sizeof *c->last);
  c->n = 0;
  return c->line && c->first && c->last ? 0 : -1;
}

static void calls_free(calls *c) {
  free(c->line);
  free(c->first);
  free(c->last);
}

static void calls_copy(calls *to, const calls *from, size_t k) {
  to->line[to->n] = from->line[k];
  to->first[to->n] = from->first[k];
  to->last[to->n++] = from->last[k];
}

static void calls_add(calls *to, int line, size_t record, size_t *chain) {
  to->line[to->n] = line;
  to->first[to->n] = to->last[to->n] = record;
  chain[record] = NO_RECORD;
  to->n++;
}

/* Lines up the records of one step, lane by lane in run[0..m), into out
 * (see the top of this file). Returns -1, out untouched, where the step is
 * too long to align or memory runs out. */
static int align_step(const placed *run, size_t m, placed *out) {
  calls cur = {0}, next = {0};
  size_t *chain = malloc(m * sizeof *chain);
  int ok = chain && calls_alloc(&cur, m) == 0 && calls_alloc(&next, m) == 0;
  for (size_t s = 0, e; ok && s < m; s = e) {
    for (e = s + 1; e < m && run[e].lane == run[s].lane; ++e)
      ;
    size_t n = cur.n, q = e - s, w = q + 1;
    unsigned *t = (n + 1) <= ALIGN_CELLS / w ? calloc((n + 1) * w, sizeof *t) : NULL;
    if (!t) {
      ok = 0;
      break;
    }
    /* t[i * w + j]: the longest common subsequence of the lines of calls
     * i.. and of records s + j.. */
    for (size_t i = n; i-- > 0;)
      for (size_t j = q; j-- > 0;) {
        unsigned down = t[(i + 1) * w + j], right = t[i * w + j + 1];
        t[i * w + j] = cur.line[i] == run[s + j].line ? t[(i + 1) * w + j + 1] + 1
                       : down > right                 ? down
                                                      : right;
      }
    next.n = 0;
    size_t i = 0, j = 0;
    while (i < n || j < q) {
      /* The next pair of the alignment, and the calls and records that the
       * alignment skips before it, merged by their lines. */
      size_t ai = i, aj = j;
      int pair = 0;
      while (ai < n && aj < q) {
        if (cur.line[ai] == run[s + aj].line &&
            t[ai * w + aj] == t[(ai + 1) * w + aj + 1] + 1) {
          pair = 1;
          break;
        }
        if (t[(ai + 1) * w + aj] >= t[ai * w + aj + 1])
          ++ai;
        else
          ++aj;
      }
      if (!pair)
        ai = n, aj = q;
      while (i < ai || j < aj)
        if (j >= aj || (i < ai && cur.line[i] <= run[s + j].line))
          calls_copy(&next, &cur, i++);
        else
          calls_add(&next, run[s + j].line, s + j, chain), ++j;
      if (pair) {
        chain[cur.last[i]] = s + j;
        chain[s + j] = NO_RECORD;
        cur.last[i] = s + j;
        calls_copy(&next, &cur, i++);
        ++j;
      }
    }
    free(t);
    calls swap = cur;
    cur = next;
    next = swap;
  }
  if (ok) {
    size_t o = 0;
    for (size_t k = 0; k < cur.n; ++k)
      for (size_t r = cur.first[k]; r != NO_RECORD; r = chain[r])
        out[o++] = run[r];
  }
  calls_free(&cur);
  calls_free(&next);
  free(chain);
  return ok ? 0 : -1;
}

/* For each record, the index of the next one of the same block (n: none),
 * through an open-addressing table of the blocks seen, from the end. */
static int link_blocks(cuemu_printf_record **all, size_t n, size_t *next) {
  size_t size = 16;
  while (size < 2 * n)
    size *= 2;
  unsigned long long *keys = malloc(size * sizeof *keys);
  size_t *last = malloc(size * sizeof *last);
  if (!keys || !last) {
    free(keys);
    free(last);
    return -1;
  }
  for (size_t h = 0; h < size; ++h)
    keys[h] = UNPLACED;
  for (size_t i = n; i-- > 0;) {
    next[i] = n;
    unsigned long long b = all[i]->block;
    if (b == UNPLACED)
      continue;
    size_t h = (size_t)(b * 0x9e3779b97f4a7c15ull) & (size - 1);
    while (keys[h] != UNPLACED && keys[h] != b)
      h = (h + 1) & (size - 1);
    if (keys[h] == b)
      next[i] = last[h];
    keys[h] = b;
    last[h] = i;
  }
  free(keys);
  free(last);
  return 0;
}

/* Puts a launch's records in the order a GPU's warps print them (see the
 * top of this file). Out of memory, they keep the order they were made. */
static void warp_order(cuemu_printf_fifo *fifo) {
  size_t n = 0;
  for (cuemu_printf_record *r = fifo->first; r; r = r->next)
    ++n;
  if (n < 2)
    return;
  cuemu_printf_record **all = malloc(n * sizeof *all);
  size_t *next = malloc(n * sizeof *next);
  unsigned char *done = calloc(n, 1);
  placed *run = malloc(n * sizeof *run);
  placed *merged = malloc(n * sizeof *merged);
  size_t filled = 0;
  for (cuemu_printf_record *r = fifo->first; all && r; r = r->next)
    all[filled++] = r;
  if (all && next && done && run && merged && link_blocks(all, n, next) == 0) {
    for (size_t i = 0; i < n; ++i) {
      if (done[i] || all[i]->block == UNPLACED)
        continue;
      size_t m = 0;
      for (size_t j = i; j < n && all[j]->warp == all[i]->warp; j = next[j]) {
        run[m++] = (placed){all[j]->phase, all[j]->lane, all[j]->line, j,
                            all[j]};
        done[j] = 1;
      }
      qsort(run, m, sizeof *run, by_lane);
      for (size_t s = 0, e; s < m; s = e) {
        for (e = s + 1; e < m && run[e].phase == run[s].phase; ++e)
          ;
        if (align_step(run + s, e - s, merged + s) != 0)
          merge_step(run + s, e - s, merged + s);
      }
      /* Back into the run's places, which the chain from i walks. */
      size_t at = i;
      for (size_t k = 0; k < m; ++k) {
        all[at] = merged[k].r;
        at = next[at];
      }
    }
    for (size_t i = 0; i + 1 < n; ++i)
      all[i]->next = all[i + 1];
    all[n - 1]->next = NULL;
    fifo->first = all[0];
    fifo->last = all[n - 1];
  }
  free(all);
  free(next);
  free(done);
  free(run);
  free(merged);
}

/* Says, once a process, that a launch lost printf records to a full FIFO,
 * and what would keep them: a program that prints a line per thread of a
 * large grid otherwise sees only part of its output, without a word. */
static void note_dropped(const cuemu_printf_fifo *fifo, const char *kernel) {
  static atomic_int noted;
  if (!fifo->dropped || cuemu__config_quiet() || atomic_exchange(&noted, 1))
    return;
  fprintf(stderr,
          "cuemu: note: kernel %s: %lu of its %lu printf records were lost: "
          "they filled the printf FIFO (cudaLimitPrintfFifoSize, %zu bytes; "
          "cuemu counts a record as its format's bytes, %zu per argument and "
          "its %%s strings) and, as on a GPU, the oldest were dropped; "
          "cudaDeviceSetLimit(cudaLimitPrintfFifoSize, ...) before the first "
          "launch that prints makes it larger\n",
          kernel ? kernel : "(unnamed)", fifo->dropped, fifo->kept, fifo->limit,
          sizeof(cuemu_printf_arg));
}

void cuemu__printf_fifo_keep(cuemu_printf_fifo *fifo, const char *kernel) {
  note_dropped(fifo, kernel);
  warp_order(fifo);
  if (fifo->first) {
    pthread_once(&exit_once, register_exit);
    pthread_mutex_lock(&pending_lock);
    if (pending_last)
      pending_last->next = fifo->first;
    else
      pending_first = fifo->first;
    pending_last = fifo->last;
    pthread_mutex_unlock(&pending_lock);
  }
  fifo->first = fifo->last = NULL;
  fifo->used = 0;
  pthread_mutex_destroy(&fifo->lock);
}

static __thread int executor;

void cuemu__printf_mark_executor(void) { executor = 1; }

void cuemu__printf_flush_at_launch(void) {
  if (!executor)
    cuemu__printf_flush_pending();
}

void cuemu__printf_flush_pending(void) {
  /* Whole records, one writer at a time: records of two flushes never
   * interleave. */
  pthread_mutex_lock(&pending_lock);
  cuemu_printf_record *r = pending_first;
  pending_first = pending_last = NULL;
  if (!r) {
    pthread_mutex_unlock(&pending_lock);
    return;
  }
  while (r) {
    cuemu_printf_record *next = r->next;
    print_record(r);
    record_free(r);
    r = next;
  }
  fflush(stdout);
  pthread_mutex_unlock(&pending_lock);
}
