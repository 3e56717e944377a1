/*
 * struct_push.cu: a kernel taking a struct by value. push moves n charged
 * particles in a fixed field for p.steps steps of p.dt: v += (q/m) dt E,
 * then x += dt v, each a fused multiply-add so that the host gets the same
 * bits. The struct's fields (int, double, float) leave padding after steps
 * and after dt, so its layout is checked as well as its values.
 */
struct push_params {
  int steps;
  double qm; /* charge over mass */
  float dt;
};

extern "C" __global__ void push(int n, push_params p, const double *e,
                                double *v, double *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double kick = p.qm * (double)p.dt;
  double vi = v[i], xi = x[i];
  for (int s = 0; s < p.steps; ++s) {
    vi = fma(kick, e[i], vi);
    xi = fma((double)p.dt, vi, xi);
  }
  v[i] = vi;
  x[i] = xi;
}
