/* struct_push_host.c: the host implementation of struct_push.cu, with the
 * same struct declared in C. */
#include <math.h>

struct push_params {
  int steps;
  double qm;
  float dt;
};

void push(int n, struct push_params p, const double *e, double *v,
          double *x) {
  double kick = p.qm * (double)p.dt;
  for (int i = 0; i < n; ++i)
    for (int s = 0; s < p.steps; ++s) {
      v[i] = fma(kick, e[i], v[i]);
      x[i] = fma((double)p.dt, v[i], x[i]);
    }
}
