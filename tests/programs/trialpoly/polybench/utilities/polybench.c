/*
 * polybench.c: timers (gettimeofday or rdtsc), cache flushing and aligned allocation.
 * Compiled as C.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <assert.h>
#include <time.h>
#include <math.h>
#include <sys/time.h>
#include <sys/resource.h>

#include "polybench.h"

#ifndef POLYBENCH_CACHE_SIZE_KB
# define POLYBENCH_CACHE_SIZE_KB 2048
#endif

static double polybench_t_start, polybench_t_end;
static unsigned long long int polybench_c_start, polybench_c_end;

static double polybench_rtclock(void)
{
  struct timeval Tp;
  int stat = gettimeofday(&Tp, NULL);
  if (stat != 0)
    printf("Error return from gettimeofday: %d", stat);
  return (Tp.tv_sec + Tp.tv_usec * 1.0e-6);
}

#ifdef POLYBENCH_CYCLE_ACCURATE_TIMER
static unsigned long long int rdtsc(void)
{
  unsigned long long int ret = 0;
  unsigned int cycles_lo;
  unsigned int cycles_hi;
  __asm__ volatile ("RDTSC" : "=a" (cycles_lo), "=d" (cycles_hi));
  ret = (unsigned long long int)cycles_hi << 32 | cycles_lo;
  return ret;
}
#endif

void polybench_flush_cache(void)
{
  int cs = POLYBENCH_CACHE_SIZE_KB * 1024 / sizeof(double);
  double* flush = (double*) calloc(cs, sizeof(double));
  int i;
  double tmp = 0.0;
  for (i = 0; i < cs; i++)
    tmp += flush[i];
  assert(tmp <= 10.0);
  free(flush);
}

void polybench_prepare_instruments(void)
{
  polybench_flush_cache();
}

void polybench_timer_start(void)
{
  polybench_prepare_instruments();
#ifndef POLYBENCH_CYCLE_ACCURATE_TIMER
  polybench_t_start = polybench_rtclock();
#else
  polybench_c_start = rdtsc();
#endif
}

void polybench_timer_stop(void)
{
#ifndef POLYBENCH_CYCLE_ACCURATE_TIMER
  polybench_t_end = polybench_rtclock();
#else
  polybench_c_end = rdtsc();
#endif
}

double polybench_timer_elapsed(void)
{
#ifndef POLYBENCH_CYCLE_ACCURATE_TIMER
  return polybench_t_end - polybench_t_start;
#else
  return (double)(polybench_c_end - polybench_c_start);
#endif
}

void polybench_timer_print(void)
{
#ifndef POLYBENCH_CYCLE_ACCURATE_TIMER
  fprintf(stderr, "%0.6f\n", polybench_t_end - polybench_t_start);
#else
  fprintf(stderr, "%Ld\n", polybench_c_end - polybench_c_start);
#endif
}

void* polybench_alloc_data(unsigned long long int n, int elt_size)
{
  size_t val = n * elt_size;
  void* ret = NULL;
  int err = posix_memalign(&ret, 32, val);
  if (!ret || err) {
    fprintf(stderr, "[PolyBench] posix_memalign: cannot allocate memory");
    exit(1);
  }
  return ret;
}
