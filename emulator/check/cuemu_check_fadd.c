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
 * value of its format: float, double, __half, __nv_bfloat16), and memory
 * gets that sum rounded to nearest, once.
 * The sum that the last add leaves is therefore the same in every order
 * (one a GPU could also give, or closer to the exact sum than any), and
 * so is whatever the kernel computes from it after a barrier; the values
 * that the adds return still depend on the order, as on a GPU. A sum whose
 * terms themselves depend on the order (a value other threads overwrite)
 * still differs, and stays reported. A plain store to the address between
 * two adds starts a new sum from the stored value.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check/cuemu_check.h"

int cuemu_atomic_fadd_exact_on;

/* A binary floating-point format of `bytes` bytes, `ebits` exponent bits
 * and `mbits` stored fraction bits. An accumulator of it counts in units of
 * its smallest subnormal, 2^(1 - bias - mbits), in a two's complement
 * integer of `words` 64-bit words (least significant first) with room
 * above its largest finite value for 2^64 adds. */
typedef struct fadd_format {
  unsigned bytes, ebits, mbits, words;
} fadd_format;

enum { MAX_WORDS = 34 }; /* a double's: 2^1024 / 2^-1074, times 2^64 */

typedef struct fadd_sum {
  uintptr_t address; /* 0: a free slot */
  fadd_format format;
  uint64_t stored;   /* the bits this sum last stored */
  int special;       /* a NaN or an infinity was added: plain adds */
  uint64_t *words;
} fadd_sum;

static pthread_mutex_t fadd_lock = PTHREAD_MUTEX_INITIALIZER;
static fadd_sum *table;
static size_t capacity; /* a power of two, or 0 */
static size_t used;

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

/* Adds (negative 0) or subtracts (negative 1) `mant` * 2^shift to the n
 * words. */
static void add_shifted(uint64_t *w, unsigned n, int negative, uint64_t mant,
                        unsigned shift) {
  unsigned k = shift / 64, b = shift % 64;
  uint64_t part[2] = {mant << b, b ? mant >> (64 - b) : 0};
  uint64_t carry = 0;
  for (unsigned i = k; i < n; ++i) {
    uint64_t p = i - k < 2 ? part[i - k] : 0;
    if (!negative) {
      uint64_t s = w[i] + p, c1 = s < p;
      w[i] = s + carry;
      carry = c1 | (w[i] < s);
    } else {
      uint64_t d = w[i] - p, b1 = w[i] < p;
      w[i] = d - carry;
      carry = b1 | (d < carry);
    }
    if (!carry && i - k >= 1)
      break;
  }
}

static uint64_t field(uint64_t bits, unsigned at, unsigned width) {
  return (bits >> at) & ((UINT64_C(1) << width) - 1);
}

static int is_special(uint64_t bits, fadd_format f) {
  return field(bits, f.mbits, f.ebits) == (UINT64_C(1) << f.ebits) - 1;
}

/* Adds the finite value of `bits` to the accumulator w. */
static void accumulate(uint64_t *w, fadd_format f, uint64_t bits) {
  uint64_t exponent = field(bits, f.mbits, f.ebits);
  uint64_t mant = field(bits, 0, f.mbits);
  unsigned shift = 0;
  if (exponent) {
    mant |= UINT64_C(1) << f.mbits;
    shift = (unsigned)exponent - 1;
  }
  if (mant)
    add_shifted(w, f.words, (int)field(bits, 8 * f.bytes - 1, 1), mant, shift);
}

static int bit_at(const uint64_t *w, int i) {
  return (int)((w[i / 64] >> (i % 64)) & 1);
}

/* The accumulator rounded to nearest, ties to even, as bits of format f
 * (an infinity past its largest value). */
static uint64_t round_sum(const uint64_t *acc, fadd_format f) {
  uint64_t w[MAX_WORDS];
  memcpy(w, acc, f.words * sizeof *w);
  uint64_t sign = w[f.words - 1] >> 63;
  if (sign) { /* the magnitude: two's complement negation */
    for (unsigned i = 0; i < f.words; ++i)
      w[i] = ~w[i];
    add_shifted(w, f.words, 0, 1, 0);
  }
  sign <<= 8 * f.bytes - 1;
  int top = -1;
  for (int i = (int)f.words - 1; i >= 0 && top < 0; --i)
    if (w[i])
      top = i * 64 + 63 - __builtin_clzll(w[i]);
  if (top < 0)
    return 0; /* an exact zero is +0, as x + -x */
  /* q: the p = mbits + 1 bits from the top, or all down to the unit. */
  int low = top - (int)f.mbits;
  if (low < 0)
    low = 0;
  uint64_t q = 0;
  for (int i = top; i >= low; --i)
    q = q << 1 | (uint64_t)bit_at(w, i);
  if (low > 0 && bit_at(w, low - 1)) {
    int sticky = 0;
    for (int i = low - 2; i >= 0 && !sticky; --i)
      sticky = bit_at(w, i);
    if (sticky || (q & 1))
      q++;
  }
  if (q >> (f.mbits + 1)) { /* rounding carried into a new bit */
    q >>= 1;
    low++;
  }
  uint64_t all_ones = (UINT64_C(1) << f.ebits) - 1;
  if (!(q >> f.mbits)) /* a subnormal (low is 0) */
    return sign | q;
  uint64_t exponent = (uint64_t)low + 1;
  if (exponent >= all_ones)
    return sign | all_ones << f.mbits;
  return sign | exponent << f.mbits | (q & ((UINT64_C(1) << f.mbits) - 1));
}

/* The sum of two values of which one is a NaN or an infinity. */
static uint64_t special_sum(uint64_t a, uint64_t b, fadd_format f) {
  uint64_t sign = UINT64_C(1) << (8 * f.bytes - 1);
  uint64_t inf = ((UINT64_C(1) << f.ebits) - 1) << f.mbits;
  uint64_t nan = inf | (UINT64_C(1) << (f.mbits - 1));
  int a_nan = is_special(a, f) && field(a, 0, f.mbits);
  int b_nan = is_special(b, f) && field(b, 0, f.mbits);
  if (a_nan || b_nan)
    return nan;
  if (is_special(a, f) && is_special(b, f))
    return (a & sign) == (b & sign) ? a : nan;
  return is_special(a, f) ? a : b;
}

static uint64_t load(const volatile void *p, unsigned bytes) {
  switch (bytes) {
  case 2: return __atomic_load_n((const volatile uint16_t *)p, __ATOMIC_SEQ_CST);
  case 4: return __atomic_load_n((const volatile uint32_t *)p, __ATOMIC_SEQ_CST);
  default: return __atomic_load_n((const volatile uint64_t *)p, __ATOMIC_SEQ_CST);
  }
}

static void store(volatile void *p, unsigned bytes, uint64_t bits) {
  switch (bytes) {
  case 2: __atomic_store_n((volatile uint16_t *)p, (uint16_t)bits, __ATOMIC_SEQ_CST); break;
  case 4: __atomic_store_n((volatile uint32_t *)p, (uint32_t)bits, __ATOMIC_SEQ_CST); break;
  default: __atomic_store_n((volatile uint64_t *)p, bits, __ATOMIC_SEQ_CST); break;
  }
}

void cuemu_atomic_fadd_exact(volatile void *address, const void *value,
                             unsigned ebits, unsigned mbits, void *old) {
  fadd_format f = {(1 + ebits + mbits) / 8, ebits, mbits, 0};
  /* Bits from the unit, 2^(2 - 2^(ebits - 1) - mbits), to past the
   * largest value, 2^(2^(ebits - 1)); 64 more for 2^64 adds; a sign. */
  f.words = (2 * ((1u << (ebits - 1)) - 1) + mbits + 64 + 1 + 63) / 64;
  uint64_t v = 0;
  memcpy(&v, value, f.bytes); /* little-endian */
  pthread_mutex_lock(&fadd_lock);
  uint64_t before = load(address, f.bytes);
  memcpy(old, &before, f.bytes);
  fadd_sum *s = find((uintptr_t)address);
  if (s && (!s->words || s->format.bytes != f.bytes ||
            s->format.ebits != ebits || s->stored != before)) {
    /* A new sum, from the value memory holds now. */
    free(s->words);
    s->words = calloc(f.words, sizeof *s->words);
    s->format = f;
    s->special = is_special(before, f);
    if (s->words && !s->special)
      accumulate(s->words, f, before);
  }
  uint64_t sum;
  if (!s || !s->words) {
    /* No memory for the sum: this add alone, rounded once (the order then
     * shows in the last bits, as without perturbation). */
    uint64_t two[MAX_WORDS] = {0};
    if (is_special(before, f) || is_special(v, f)) {
      sum = special_sum(before, v, f);
    } else {
      accumulate(two, f, before);
      accumulate(two, f, v);
      sum = round_sum(two, f);
    }
  } else if (s->special || is_special(v, f)) {
    s->special = 1;
    sum = special_sum(before, v, f);
  } else {
    accumulate(s->words, f, v);
    sum = round_sum(s->words, f);
  }
  store(address, f.bytes, sum);
  if (s)
    s->stored = sum;
  pthread_mutex_unlock(&fadd_lock);
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
