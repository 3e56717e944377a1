/*
 * cuemu_gpu_arch.c: the GPU architecture names of CUDA 13 (what
 * `nvcc --list-gpu-arch` and `--list-gpu-code` print), with the "a"
 * (architecture-specific) and "f" (family) suffixes where CUDA 13 has them.
 */
#include "cuemu_gpu_arch.h"

#include <ctype.h>
#include <string.h>

/* Each compute capability CUDA 13 compiles for, and which suffixes it
 * takes, in the order that nvcc 13.0 lists them (110 before 103). */
static const struct {
  int number;
  int a, f;
} known[] = {
    {75, 0, 0},  {80, 0, 0},  {86, 0, 0},  {87, 0, 0},
    {88, 0, 0},  {89, 0, 0},  {90, 1, 0},  {100, 1, 1},
    {110, 1, 1}, {103, 1, 1}, {120, 1, 1}, {121, 1, 1},
};

/* The number and suffix ('a', 'f' or '\0') of an architecture name, or 0
 * when CUDA 13 does not know it. */
static int parse_name(const char *name, size_t n, char *suffix_out) {
  static const char *const prefixes[] = {"sm_", "compute_", "lto_"};
  size_t skip = 0;
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; ++i) {
    const size_t len = strlen(prefixes[i]);
    if (n > len && strncmp(name, prefixes[i], len) == 0)
      skip = len;
  }
  if (!skip)
    return 0;
  int number = 0;
  size_t i = skip;
  for (; i < n && isdigit((unsigned char)name[i]) && number < 1000; ++i)
    number = number * 10 + (name[i] - '0');
  if (i == skip || i + 1 < n)
    return 0;
  const char suffix = i < n ? name[i] : '\0';
  for (size_t k = 0; k < sizeof known / sizeof *known; ++k)
    if (known[k].number == number &&
        (suffix == '\0' || (suffix == 'a' && known[k].a) ||
         (suffix == 'f' && known[k].f))) {
      *suffix_out = suffix;
      return number * 10;
    }
  return 0;
}

int cuemu__gpu_arch_value(const char *name, size_t n) {
  char suffix;
  return parse_name(name, n, &suffix);
}

char cuemu__gpu_arch_suffix(const char *name, size_t n) {
  char suffix = '\0';
  return parse_name(name, n, &suffix) ? suffix : '\0';
}

void cuemu__gpu_arch_list(FILE *out, int list) {
  for (size_t k = 0; k < sizeof known / sizeof *known; ++k) {
    const int number = known[k].number;
    if (list == (CUEMU_GPU_LIST_ARCH | CUEMU_GPU_LIST_CODE))
      fprintf(out, "arch=compute_%d,code=sm_%d\n", number, number);
    else
      fprintf(out, "%s_%d\n", list == CUEMU_GPU_LIST_ARCH ? "compute" : "sm",
              number);
  }
}

cuemu_gpu_arch_set cuemu__gpu_arch_one(int value) {
  for (size_t k = 0; k < sizeof known / sizeof *known; ++k)
    if (known[k].number * 10 == value)
      return 1u << k;
  return 0;
}

cuemu_gpu_arch_set cuemu__gpu_arch_all(int major_only) {
  cuemu_gpu_arch_set set = 0;
  for (size_t k = 0; k < sizeof known / sizeof *known; ++k)
    if (!major_only || known[k].number % 10 == 0 || known[k].number == 75)
      set |= 1u << k;
  return set;
}

void cuemu__gpu_arch_list_macro(cuemu_gpu_arch_set set, char *buffer,
                                size_t size) {
  size_t used = 0;
  int last = 0;
  if (size)
    buffer[0] = '\0';
  /* The table is not in increasing order (110 before 103): take the
   * smallest number above the last one written, each time. */
  for (;;) {
    int next = 0;
    for (size_t k = 0; k < sizeof known / sizeof *known; ++k)
      if ((set & (1u << k)) && known[k].number > last &&
          (!next || known[k].number < next))
        next = known[k].number;
    if (!next)
      return;
    int n = snprintf(buffer + used, used < size ? size - used : 0, "%s%d",
                     last ? "," : "", next * 10);
    if (n > 0)
      used += (size_t)n;
    last = next;
  }
}

void cuemu__gpu_arch_macros(int arch, int suffix, char out[3][64]) {
  for (int i = 0; i < 3; ++i)
    out[i][0] = '\0';
  if (suffix == 'a') {
    snprintf(out[0], sizeof out[0], "-D__CUDA_ARCH_SPECIFIC__=%d", arch);
    snprintf(out[2], sizeof out[2], "-D__CUDA_ARCH_FEAT_SM%d_ALL", arch / 10);
  }
  if (suffix == 'a' || suffix == 'f')
    snprintf(out[1], sizeof out[1], "-D__CUDA_ARCH_FAMILY_SPECIFIC__=%d",
             arch);
}
