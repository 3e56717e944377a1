/* host_erfcinv_speed.cu: thrust's normal_distribution draws its normals on
 * the host through erfcinv (a course's histogram homework draws ten
 * million of them in main() before launching anything). cuemu's host
 * erfcinv refined its estimate by Newton steps until a step fell below
 * 1e-17 of the root, which a double step never does once it is down to
 * rounding: for every argument below 1/2 it ran its 60 steps, about 3 us a
 * call, and the homework spent 10 s of processor time before its first
 * launch (0.41 s of processor time for the 400,000 calls below; 0.05 s
 * once the stopping rule is 1e-15 of the result, measured on the trial's
 * machine and noted in bench/RESULTS.md). The values must stay where they
 * were: erfc of the result gives the argument back. The time is printed,
 * never judged (tests are not timed). From tests/programs_trialuda.sh. */
#include <cmath>
#include <cstdio>
#include <ctime>
#include <cuda_runtime.h>
#include <thrust/random/linear_congruential_engine.h>
#include <thrust/random/normal_distribution.h>

int main() {
  const int n = 400000;
  double worst = 0.0;
  std::clock_t start = std::clock();
  double sum = 0.0;
  for (int i = 1; i <= n; ++i) {
    double y = 2.0 * i / (n + 1.0);
    double x = erfcinv(y);
    sum += x;
    if (i % 97 == 0) {
      double back = std::erfc(x);
      double rel = std::fabs(back - y) / y;
      if (rel > worst) worst = rel;
    }
  }
  double seconds = (double)(std::clock() - start) / CLOCKS_PER_SEC;
  thrust::minstd_rand rng;
  thrust::random::normal_distribution<float> normal(500.f, 100.f);
  double mean = 0.0;
  for (int i = 0; i < 100000; ++i) mean += normal(rng);
  mean /= 100000;
  std::printf("erfcinv: %d calls, %.3f s of processor time, worst relative error of erfc(erfcinv(y)) %.2e\n",
              n, seconds, worst);
  std::printf("mean of 100000 normals (500, 100): %.2f\n", mean);
  int fails = 0;
  if (worst > 1e-14) { std::printf("erfcinv's values moved\n"); ++fails; }
  if (std::fabs(mean - 500.0) > 2.0) { std::printf("the normals are off\n"); ++fails; }
  if (!(sum == sum)) ++fails;
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
