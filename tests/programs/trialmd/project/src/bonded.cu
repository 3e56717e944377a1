// NVCC_OPTIONS: -rdc=true -I../../include --expt-relaxed-constexpr
// bonded: harmonic bonds and angles of bead-spring chains, lists in
// struct-of-arrays form, forces added to every atom with atomicAdd, the
// terms evaluated by extern __device__ functions of the geometry library,
// and the virial reduced with cooperative-groups tiles of 16.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>
#include <random>
#include <vector>
#include "md_common.cuh"
#include "bonded_math.cuh"
#include "geom.cuh"

namespace cg = cooperative_groups;
using namespace md;

struct BondList {
  int n;
  const int *a, *b;
  const float *k, *r0;
};
struct AngleList {
  int n;
  const int *a, *b, *c;
  const float *k, *theta0;
};
struct ForceArrays {
  float *x, *y, *z;
  __device__ void add(int i, const vec3 &f) {
    atomicAdd(&x[i], f.x);
    atomicAdd(&y[i], f.y);
    atomicAdd(&z[i], f.z);
  }
};

// A tile's sum by shuffles, then one atomic per tile.
template <int TILE>
__device__ void tile_accumulate(cg::thread_block_tile<TILE> tile, double v, double *out) {
  for (int offset = TILE / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  if (tile.thread_rank() == 0) atomicAdd(out, v);
}

__global__ void bond_forces(const float4 *__restrict__ pos, float L, BondList bonds, ForceArrays f,
                            double *energy, double *virial) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  double e = 0.0, w = 0.0;
  if (t < bonds.n) {
    int i = bonds.a[t], j = bonds.b[t];
    vec3 d = geom_min_image(vec3(__ldg(&pos[i])) - vec3(__ldg(&pos[j])), L);
    vec3 fa;
    e = geom_bond(d, bonds.k[t], bonds.r0[t], &fa);
    f.add(i, fa);
    f.add(j, -fa);
    w = dot(d, fa);
  }
  tile_accumulate<16>(tile, w, virial);
  double te = cg::reduce(tile, e, cg::plus<double>());
  if (tile.thread_rank() == 0) atomicAdd(energy, te);
}

__global__ void angle_forces(const float4 *__restrict__ pos, float L, AngleList angles, ForceArrays f,
                             double *energy, double *virial) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  double e = 0.0, w = 0.0;
  if (t < angles.n) {
    int ia = angles.a[t], ib = angles.b[t], ic = angles.c[t];
    vec3 rb(__ldg(&pos[ib]));
    vec3 d1 = geom_min_image(vec3(__ldg(&pos[ia])) - rb, L);
    vec3 d2 = geom_min_image(vec3(__ldg(&pos[ic])) - rb, L);
    vec3 fa, fc;
    e = geom_angle(d1, d2, angles.k[t], angles.theta0[t], &fa, &fc);
    f.add(ia, fa);
    f.add(ic, fc);
    f.add(ib, -(fa + fc));
    w = dot(d1, fa) + dot(d2, fc);
  }
  tile_accumulate<16>(tile, w, virial);
  double te = cg::reduce(tile, e, cg::plus<double>());
  if (tile.thread_rank() == 0) atomicAdd(energy, te);
}

template <typename T>
static T *to_device(const std::vector<T> &v) {
  T *d;
  CUDA_CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

int main() {
  const int chains = 40, beads = 25, n = chains * beads;
  const float L = 30.f;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.f, 1.f), box(0.f, L);
  std::vector<float4> pos(n);
  for (int c = 0; c < chains; ++c) {
    vec3 r(box(rng), box(rng), box(rng));
    for (int b = 0; b < beads; ++b) {
      vec3 step(u(rng), u(rng), u(rng));
      r += step * (1.0f / fmaxf(step.norm(), 0.2f));
      pos[c * beads + b] = make_float4(wrap_position(r.x, L), wrap_position(r.y, L), wrap_position(r.z, L), 0.f);
    }
  }
  std::vector<int> ba, bb, aa, ab, ac;
  std::vector<float> bk, br0, ak, at0;
  for (int c = 0; c < chains; ++c)
    for (int b = 0; b < beads; ++b) {
      int i = c * beads + b;
      if (b + 1 < beads) { ba.push_back(i); bb.push_back(i + 1); bk.push_back(50.f); br0.push_back(0.97f); }
      if (b + 2 < beads) {
        aa.push_back(i); ab.push_back(i + 1); ac.push_back(i + 2);
        ak.push_back(5.f); at0.push_back(1.9f);
      }
    }
  BondList bonds{(int)ba.size(), to_device(ba), to_device(bb), to_device(bk), to_device(br0)};
  AngleList angles{(int)aa.size(), to_device(aa), to_device(ab), to_device(ac), to_device(ak), to_device(at0)};
  float4 *d_pos = to_device(pos);
  ForceArrays f;
  CUDA_CHECK(cudaMalloc(&f.x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&f.y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&f.z, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(f.x, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(f.y, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(f.z, 0, n * sizeof(float)));
  double *d_acc; // bond energy, angle energy, virial
  CUDA_CHECK(cudaMalloc(&d_acc, 3 * sizeof(double)));
  CUDA_CHECK(cudaMemset(d_acc, 0, 3 * sizeof(double)));
  unsigned long long zero = 0;
  CUDA_CHECK(cudaMemcpyToSymbol(geom_evaluations, &zero, sizeof(zero)));

  const int threads = 96; // six tiles of 16
  bond_forces<<<(bonds.n + threads - 1) / threads, threads>>>(d_pos, L, bonds, f, d_acc, d_acc + 2);
  CUDA_CHECK_LAST();
  angle_forces<<<(angles.n + threads - 1) / threads, threads>>>(d_pos, L, angles, f, d_acc + 1, d_acc + 2);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> fx(n), fy(n), fz(n);
  double acc[3];
  unsigned long long evals = 0;
  CUDA_CHECK(cudaMemcpy(fx.data(), f.x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(fy.data(), f.y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(fz.data(), f.z, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(acc, d_acc, sizeof(acc), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpyFromSymbol(&evals, geom_evaluations, sizeof(evals)));

  // The host reference.
  std::vector<double> hf(3 * n, 0.0);
  double eb = 0.0, ea = 0.0, vir = 0.0;
  for (size_t t = 0; t < ba.size(); ++t) {
    vec3 d = min_image(vec3(pos[ba[t]]) - vec3(pos[bb[t]]), L), fa;
    eb += bond_harmonic(d, bk[t], br0[t], fa);
    for (int k = 0; k < 3; ++k) {
      float c = k == 0 ? fa.x : k == 1 ? fa.y : fa.z;
      hf[3 * ba[t] + k] += c;
      hf[3 * bb[t] + k] -= c;
    }
    vir += dot(d, fa);
  }
  for (size_t t = 0; t < aa.size(); ++t) {
    vec3 rb(pos[ab[t]]);
    vec3 d1 = min_image(vec3(pos[aa[t]]) - rb, L), d2 = min_image(vec3(pos[ac[t]]) - rb, L), fa, fc;
    ea += angle_harmonic(d1, d2, ak[t], at0[t], fa, fc);
    vec3 fb = -(fa + fc);
    const vec3 *fs[3] = {&fa, &fb, &fc};
    int who[3] = {aa[t], ab[t], ac[t]};
    for (int m = 0; m < 3; ++m) {
      hf[3 * who[m]] += fs[m]->x;
      hf[3 * who[m] + 1] += fs[m]->y;
      hf[3 * who[m] + 2] += fs[m]->z;
    }
    vir += dot(d1, fa) + dot(d2, fc);
  }
  double maxerr = 0.0, scale = 0.0, sum[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    double g[3] = {fx[i], fy[i], fz[i]};
    for (int k = 0; k < 3; ++k) {
      maxerr = fmax(maxerr, fabs(g[k] - hf[3 * i + k]));
      scale = fmax(scale, fabs(hf[3 * i + k]));
      sum[k] += g[k];
    }
  }
  double net = fabs(sum[0]) + fabs(sum[1]) + fabs(sum[2]);
  printf("bonds %zu angles %zu: E_bond %.4f (host %.4f) E_angle %.4f (host %.4f) virial %.4f (host %.4f)\n",
         ba.size(), aa.size(), acc[0], eb, acc[1], ea, acc[2], vir);
  printf("max force error %.3g of %.3g, net force %.3g, %llu terms evaluated\n", maxerr, scale, net, evals);
  bool ok = maxerr < 1e-4 * fmax(scale, 1.0) && fabs(acc[0] - eb) < 1e-4 * fmax(eb, 1.0) &&
            fabs(acc[1] - ea) < 1e-4 * fmax(ea, 1.0) && fabs(acc[2] - vir) < 1e-4 * fmax(fabs(vir), 1.0) &&
            net < 1e-2 && evals == ba.size() + aa.size();
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
