// Dam break in a closed basin: finite-volume shallow water with Rusanov
// fluxes, the time step from a CFL condition (a maximum by warp shuffles and
// atomicMax on float bits into a __device__ variable), dynamic shared
// memory tiles of float3. Mass is conserved and the state equals a host run.
#include "cfd/shallow_water.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

using namespace cfd::swe;

namespace {

void host_step(const std::vector<float3> &q, std::vector<float3> &out, int nx,
               int ny, float dt_dx) {
  out.resize(q.size());
  auto get = [&](int gi, int gj) {
    const int ci = std::min(std::max(gi, 0), nx - 1);
    const int cj = std::min(std::max(gj, 0), ny - 1);
    float3 v = q[size_t(cj) * nx + ci];
    if (gi < 0 || gi >= nx) v = reflect(v, true);
    if (gj < 0 || gj >= ny) v = reflect(v, false);
    return v;
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float3 c = get(i, j);
      const float3 fw = rusanov(get(i - 1, j), c, true);
      const float3 fe = rusanov(c, get(i + 1, j), true);
      const float3 fs = rusanov(get(i, j - 1), c, false);
      const float3 fn = rusanov(c, get(i, j + 1), false);
      out[size_t(j) * nx + i] =
          make_float3(c.x - dt_dx * (fe.x - fw.x + fn.x - fs.x),
                      c.y - dt_dx * (fe.y - fw.y + fn.y - fs.y),
                      c.z - dt_dx * (fe.z - fw.z + fn.z - fs.z));
    }
}

} // namespace

int main() {
  cfd::print_device_banner();
  const int nx = 80, ny = 60, steps = 60;
  const float dx = 1.0f, cfl = 0.4f;
  std::vector<float3> q0(size_t(nx) * ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float r2 = (i - 30.0f) * (i - 30.0f) + (j - 30.0f) * (j - 30.0f);
      q0[size_t(j) * nx + i] = make_float3(r2 < 100.0f ? 2.0f : 1.0f, 0.0f, 0.0f);
    }
  float3 *d_q, *d_out;
  const size_t bytes = q0.size() * sizeof(float3);
  CUDA_CHECK(cudaMalloc(&d_q, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMemcpy(d_q, q0.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(16, 8);
  const dim3 grid(cfd::div_up(nx, 16), cfd::div_up(ny, 8));
  const size_t shmem = (block.x + 2) * (block.y + 2) * sizeof(float3);
  std::vector<float3> ref = q0, tmp;
  double t = 0.0;
  bool dt_ok = true;
  for (int s = 0; s < steps; ++s) {
    const float zero = 0.0f;
    CUDA_CHECK(cudaMemcpyToSymbol(d_max_speed, &zero, sizeof zero));
    max_speed_kernel<<<8, 128>>>(d_q, nx * ny);
    CUDA_CHECK(cudaGetLastError());
    float smax = 0.0f;
    CUDA_CHECK(cudaMemcpyFromSymbol(&smax, d_max_speed, sizeof smax));
    float host_smax = 0.0f;
    for (const float3 &v : ref)
      host_smax = std::fmax(host_smax, wave_speed(v));
    dt_ok = dt_ok && std::fabs(smax - host_smax) <= 1e-5f * host_smax;
    const float dt = cfl * dx / host_smax;
    step_kernel<<<grid, block, shmem>>>(d_q, d_out, nx, ny, dt / dx);
    CUDA_CHECK(cudaGetLastError());
    std::swap(d_q, d_out);
    host_step(ref, tmp, nx, ny, dt / dx);
    ref.swap(tmp);
    t += dt;
  }
  std::vector<float3> q(q0.size());
  CUDA_CHECK(cudaMemcpy(q.data(), d_q, bytes, cudaMemcpyDeviceToHost));
  double mass0 = 0.0, mass = 0.0, err = 0.0, hmax = 0.0;
  for (size_t c = 0; c < q.size(); ++c) {
    mass0 += q0[c].x;
    mass += q[c].x;
    hmax = std::fmax(hmax, q[c].x);
    err = std::fmax(err, std::fabs(q[c].x - ref[c].x));
    err = std::fmax(err, std::fabs(q[c].y - ref[c].y));
    err = std::fmax(err, std::fabs(q[c].z - ref[c].z));
  }
  const double mass_rel = std::fabs(mass - mass0) / mass0;
  const bool ok = dt_ok && err < 1e-4 && mass_rel < 1e-5 && hmax < 2.0 && hmax > 1.0;
  std::printf("dam break %dx%d, %d steps to t = %.3f: max diff %.3e, mass rel "
              "change %.2e, h max %.3f, CFL speeds %s\n",
              nx, ny, steps, t, err, mass_rel, hmax, dt_ok ? "agree" : "DIFFER");
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_out));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
