/* polybenchUtilFuncts.h: utility functions of the GPU versions (timing, percent difference). */
#ifndef POLYBENCH_UTIL_FUNCTS_H
#define POLYBENCH_UTIL_FUNCTS_H

#include <stdlib.h>
#include <sys/time.h>
#include <math.h>

/* Values below this are treated as zero by percentDiff. */
#define SMALL_FLOAT_VAL 0.00000001f

double rtclock()
{
  struct timezone Tzp;
  struct timeval Tp;
  int stat;
  stat = gettimeofday(&Tp, &Tzp);
  if (stat != 0) printf("Error return from gettimeofday: %d", stat);
  return (Tp.tv_sec + Tp.tv_usec * 1.0e-6);
}

float absVal(float a)
{
  if (a < 0)
    return (a * -1);
  else
    return a;
}

float percentDiff(double val1, double val2)
{
  if ((absVal(val1) < 0.01) && (absVal(val2) < 0.01))
    return 0.0f;
  else
    return 100.0f * (absVal(absVal(val1 - val2) / absVal(val1 + SMALL_FLOAT_VAL)));
}

/* Synchronisation of the old runtime where it still exists. */
#if CUDART_VERSION < 13000
#define POLYBENCH_DEVICE_SYNC() cudaThreadSynchronize()
#else
#define POLYBENCH_DEVICE_SYNC() cudaDeviceSynchronize()
#endif

#endif
