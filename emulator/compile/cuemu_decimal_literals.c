/*
 * cuemu_decimal_literals.c: the type nvcc gives a decimal integer literal
 * that no signed type holds.
 *
 * A decimal literal without a `u` suffix has the first of int, long and
 * long long that holds its value. One above LLONG_MAX fits none: nvcc's
 * front end gives it unsigned long long, on the host and on the device
 * (17492915097719143606, -9223372036854775808), where g++ gives it
 * __int128 with a warning ("integer constant is so large that it is
 * unsigned"), so that x * 17492915097719143606 % p was reduced in 128
 * bits instead of wrapping at 2^64. The rewriter writes such a literal
 * with the suffix ULL, which says nvcc's type to g++ and clang++.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cuemu_rewriter.h"

cuemu_status cuemu__decimal_literal_rewrite(cuemu_rewriter *rw, size_t i) {
  char spelling[64], text[80];
  size_t len, digits = 0, k;
  unsigned long long value = 0;
  const cuemu_token *t = &rw->toks[i];
  if (t->kind != CUEMU_TOKEN_NUMBER || t->length >= sizeof spelling) return CUEMU_SUCCESS;
  len = cuemu__token_spelling(rw->text, t, spelling, sizeof spelling);
  if (len == 0 || spelling[0] < '1' || spelling[0] > '9') return CUEMU_SUCCESS;
  for (k = 0; k < len && (isdigit((unsigned char)spelling[k]) || spelling[k] == '\''); k++) {
    unsigned d;
    if (spelling[k] == '\'') continue;
    d = (unsigned)(spelling[k] - '0');
    if (value > (~0ULL - d) / 10) return CUEMU_SUCCESS; /* too large for any type */
    value = value * 10 + d;
    digits = k + 1;
  }
  /* No suffix, or l, L, ll, LL: a signed type is asked for. */
  if (!(k == len || (len - k <= 2 && strspn(spelling + k, "lL") == len - k &&
                     (len - k == 1 || spelling[k] == spelling[k + 1]))))
    return CUEMU_SUCCESS;
  if (value <= 0x7fffffffffffffffULL) return CUEMU_SUCCESS;
  snprintf(text, sizeof text, "%.*sULL", (int)digits, spelling);
  return cuemu__rw_edit(rw, t->offset, t->length, text, strlen(text));
}
