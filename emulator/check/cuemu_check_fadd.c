/*
 * cuemu_check_fadd.c: floating-point atomic adds whose sums do not depend
 * on the order, while schedule perturbation (cuemu_check_perturb.c) runs
 * a launch in two orders.
 *
 * A global sum made with atomicAdd on a float or a double (a block's
 * partial sum added by its thread 0: a mass, a norm, a dot product) ends
 * with other last bits when the adds come in another order, on a GPU as
 * here; a persistent kernel that reads such a sum after grid.sync() (the
 * dot products of a conjugate-gradient solver) carries the difference into
 * all it computes next. Perturbation compares the two orders' results
 * byte for byte, and took that rounding for a race. While a perturbed
 * launch runs, the shims' floating-point atomic adds come here instead:
 * each address keeps the exact sum of its value at the first add and of
 * every value added since (a fixed-point accumulator wide enough for any
 * float or double), and memory gets that sum rounded to nearest, once.
 * The sum that the last add leaves is therefore the same in every order
 * (one a GPU could also give, or closer to the exact sum than any), and
 * so is whatever the kernel computes from it after a barrier; the values
 * that the adds return still depend on the order, as on a GPU. A sum whose
 * terms themselves depend on the order (a value other threads overwrite)
 * still differs, and stays reported. A plain store to the address between
 * two adds starts a new sum from the stored value.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check/cuemu_check.h"

int cuemu_atomic_fadd_exact_on;

/* The accumulator of a float (value = M * 2^-149) or a double
 * (M * 2^-1074): M is a two's complement integer of FLOAT_WORDS or
 * DOUBLE_WORDS 64-bit words, least significant first, with room above the
 * largest finite value for 2^64 adds. */
enum { FLOAT_WORDS = 6, DOUBLE_WORDS = 34 };

typedef struct fadd_sum {
  uintptr_t address; /* 0: a free slot */
  unsigned size;     /* 4 or 8 */
  uint64_t stored;   /* the bits this sum last stored */
  int special;       /* a NaN or an infinity was added: plain adds */
  uint64_t *words;
} fadd_sum;

static pthread_mutex_t fadd_lock = PTHREAD_MUTEX_INITIALIZER;
static fadd_sum *table;
static size_t capacity; /* a power of two, or 0 */
static size_t used;

static unsigned words_of(unsigned size) {
  return size == sizeof(float) ? FLOAT_WORDS : DOUBLE_WORDS;
}

static size_t slot(uintptr_t address, size_t cap) {
  uint64_t h = (uint64_t)address * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 20) & (cap - 1);
}

/* The sum of `address`, a new empty one (words NULL) if there is none;
 * NULL without memory. Called with the lock held. */
static fadd_sum *find(uintptr_t address) {
  if ((used + 1) * 2 > capacity) {
    size_t cap = capacity ? capacity * 2 : 256;
    fadd_sum *grown = calloc(cap, sizeof *grown);
    if (!grown)
      return NULL;
    for (size_t i = 0; i < capacity; ++i) {
      if (!table[i].address)
        continue;
      size_t k = slot(table[i].address, cap);
      while (grown[k].address)
        k = (k + 1) & (cap - 1);
      grown[k] = table[i];
    }
    free(table);
    table = grown;
    capacity = cap;
  }
  size_t k = slot(address, capacity);
  while (table[k].address && table[k].address != address)
    k = (k + 1) & (capacity - 1);
  if (!table[k].address) {
    table[k].address = address;
    used++;
  }
  return &table[k];
}

/* Adds (sign 1) or subtracts (sign -1) `mant` * 2^shift to the n words. */
static void add_shifted(uint64_t *w, unsigned n, int sign, uint64_t mant,
                        unsigned shift) {
  unsigned k = shift / 64, b = shift % 64;
  uint64_t part[2] = {mant << b, b ? mant >> (64 - b) : 0};
  uint64_t carry = 0;
  for (unsigned i = k; i < n; ++i) {
    uint64_t p = i - k < 2 ? part[i - k] : 0;
    if (sign > 0) {
      uint64_t s = w[i] + p, c1 = s < p;
      w[i] = s + carry;
      carry = c1 | (w[i] < s);
      if (!carry && i - k >= 1)
        break;
    } else {
      uint64_t d = w[i] - p, b1 = w[i] < p;
      uint64_t r = d - carry;
      carry = b1 | (d < carry);
      w[i] = r;
      if (!carry && i - k >= 1)
        break;
    }
  }
}

/* Adds the finite double x to the accumulator of a `size`-byte value. */
static void accumulate(uint64_t *w, unsigned size, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int exponent = (int)((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
  if (exponent)
    mant |= UINT64_C(1) << 52;
  else
    exponent = 1;
  if (!mant)
    return;
  /* x = mant * 2^(exponent - 1075); the accumulator's unit is 2^-149 or
   * 2^-1074. A float's bits are all at or above 2^-149. */
  int shift = exponent - 1075 + (size == sizeof(float) ? 149 : 1074);
  if (shift < 0) {
    unsigned drop = (unsigned)-shift;
    mant = drop < 64 ? mant >> drop : 0;
    shift = 0;
  }
  add_shifted(w, words_of(size), (bits >> 63) ? -1 : 1, mant,
              (unsigned)shift);
}

static int bit_at(const uint64_t *w, unsigned i) {
  return (int)((w[i / 64] >> (i % 64)) & 1);
}

/* The accumulator rounded to nearest (ties to even) as a float or double
 * (returned as a double that holds it exactly, or an infinity). */
static double round_sum(const uint64_t *acc, unsigned size) {
  unsigned n = words_of(size);
  uint64_t w[DOUBLE_WORDS];
  memcpy(w, acc, n * sizeof *w);
  int negative = (int)(w[n - 1] >> 63);
  if (negative) { /* the magnitude: two's complement negation */
    for (unsigned i = 0; i < n; ++i)
      w[i] = ~w[i];
    add_shifted(w, n, 1, 1, 0);
  }
  int top = -1;
  for (int i = (int)n - 1; i >= 0 && top < 0; --i)
    if (w[i])
      top = i * 64 + 63 - __builtin_clzll(w[i]);
  if (top < 0)
    return negative ? -0.0 : 0.0;
  unsigned precision = size == sizeof(float) ? 24 : 53;
  int low = top - (int)precision + 1;
  if (low < 0)
    low = 0;
  uint64_t q = 0;
  for (int i = top; i >= low; --i)
    q = q << 1 | (uint64_t)bit_at(w, (unsigned)i);
  if (low > 0 && bit_at(w, (unsigned)low - 1)) {
    int sticky = 0;
    for (int i = low - 2; i >= 0 && !sticky; --i)
      sticky = bit_at(w, (unsigned)i);
    if (sticky || (q & 1))
      q++;
  }
  double r = ldexp((double)q, low - (size == sizeof(float) ? 149 : 1074));
  if (size == sizeof(float))
    r = (double)(float)r; /* past FLT_MAX: an infinity */
  return negative ? -r : r;
}

static double load(const volatile void *p, unsigned size, uint64_t *bits) {
  if (size == sizeof(float)) {
    uint32_t b = __atomic_load_n((const volatile uint32_t *)p, __ATOMIC_SEQ_CST);
    float f;
    memcpy(&f, &b, sizeof f);
    *bits = b;
    return f;
  }
  uint64_t b = __atomic_load_n((const volatile uint64_t *)p, __ATOMIC_SEQ_CST);
  double d;
  memcpy(&d, &b, sizeof d);
  *bits = b;
  return d;
}

static uint64_t store(volatile void *p, unsigned size, double v) {
  if (size == sizeof(float)) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    __atomic_store_n((volatile uint32_t *)p, b, __ATOMIC_SEQ_CST);
    return b;
  }
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  __atomic_store_n((volatile uint64_t *)p, b, __ATOMIC_SEQ_CST);
  return b;
}

double cuemu_atomic_fadd_exact(volatile void *address, unsigned size,
                               double value) {
  pthread_mutex_lock(&fadd_lock);
  uint64_t bits;
  double old = load(address, size, &bits);
  fadd_sum *s = find((uintptr_t)address);
  unsigned n = words_of(size);
  if (s && (!s->words || s->size != size || s->stored != bits)) {
    /* A new sum, from the value memory holds now. */
    free(s->words);
    s->words = calloc(n, sizeof *s->words);
    s->size = size;
    s->special = !isfinite(old);
    if (s->words && !s->special)
      accumulate(s->words, size, old);
  }
  if (!s || !s->words) {
    /* No memory: a plain add (the order then shows in the last bits). */
    double r = size == sizeof(float) ? (double)((float)old + (float)value)
                                     : old + value;
    store(address, size, r);
    pthread_mutex_unlock(&fadd_lock);
    return old;
  }
  double sum;
  if (s->special || !isfinite(value)) {
    s->special = 1;
    sum = size == sizeof(float) ? (double)((float)old + (float)value)
                                : old + value;
  } else {
    accumulate(s->words, size, value);
    sum = round_sum(s->words, size);
  }
  s->stored = store(address, size, sum);
  pthread_mutex_unlock(&fadd_lock);
  return old;
}

void cuemu__check_fadd_begin(void) {
  pthread_mutex_lock(&fadd_lock);
  for (size_t i = 0; i < capacity; ++i)
    free(table[i].words);
  if (used)
    memset(table, 0, capacity * sizeof *table);
  used = 0;
  pthread_mutex_unlock(&fadd_lock);
  __atomic_store_n(&cuemu_atomic_fadd_exact_on, 1, __ATOMIC_RELEASE);
}

void cuemu__check_fadd_end(void) {
  __atomic_store_n(&cuemu_atomic_fadd_exact_on, 0, __ATOMIC_RELEASE);
}
