// live_across_collectives.cu: values kept in registers across warp
// collectives, and the collectives' results, against a host computation.
//
// On x86-64 a lane that waits at a warp collective saves only its frame
// pointer and resume address (emulator/core/cuemu_warp_sync_x86_64.S): the
// kernel code itself must keep every value it needs afterwards, and the
// result comes back in a register from the light frame. These kernels keep
// many integer, float and double values live across shuffles, votes,
// matches and reductions (more than there are registers), in a loop, in a
// device function that is not inlined, through cooperative groups' tiles,
// with partial masks and a partial warp, and in the warp-aggregated atomic
// pattern; every result is checked against the host.
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "../check.cuh"
#include "../live_mix.cuh"

namespace cg = cooperative_groups;

#define FULL 0xffffffffu

__host__ __device__ inline void mix_step(Mix &m, int r) {
  for (int k = 0; k < 6; ++k)
    m.a[k] += r;
  for (int k = 0; k < 5; ++k)
    m.d[k] *= 1.0 + 1.0 / 1024;
}

// Each round: one collective of each kind, then every live value folded in.
__global__ void rounds_kernel(double *out, int rounds) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  Mix m = make_mix(g);
  double acc = 0;
  for (int r = 0; r < rounds; ++r) {
    int down = __shfl_down_sync(FULL, m.a[r % 6] + r, 1 + r % 4);
    double x = __shfl_xor_sync(FULL, m.d[r % 5], 1 << (r % 5));
    unsigned b = __ballot_sync(FULL, (m.a[0] + r) & 1);
    unsigned same = __match_any_sync(FULL, static_cast<unsigned>(m.a[1] + r) % 3u);
    unsigned sum = __reduce_add_sync(FULL, static_cast<unsigned>(m.a[2]));
    float f = __shfl_sync(FULL, m.f[r % 5], (r * 7) % 32);
    acc += down + x + __popc(b) * 3 + __popc(same) * 5 + (sum % 1000) + f;
    acc += mix_sum(m, r);
    mix_step(m, r);
  }
  out[g] = acc + mix_sum(m, rounds);
}

static std::vector<double> rounds_host(unsigned n, int rounds) {
  std::vector<Mix> m(n);
  std::vector<double> acc(n, 0.0);
  for (unsigned g = 0; g < n; ++g)
    m[g] = make_mix(g);
  for (int r = 0; r < rounds; ++r) {
    for (unsigned w = 0; w < n; w += 32) {
      unsigned b = 0, sum = 0;
      for (unsigned l = 0; l < 32; ++l) {
        b |= static_cast<unsigned>((m[w + l].a[0] + r) & 1) << l;
        sum += static_cast<unsigned>(m[w + l].a[2]);
      }
      for (unsigned l = 0; l < 32; ++l) {
        unsigned d = 1 + r % 4, src = l + d < 32 ? l + d : l;
        int down = m[w + src].a[r % 6] + r;
        double x = m[w + (l ^ (1u << (r % 5)))].d[r % 5];
        unsigned key = static_cast<unsigned>(m[w + l].a[1] + r) % 3u, same = 0;
        for (unsigned k = 0; k < 32; ++k)
          if (static_cast<unsigned>(m[w + k].a[1] + r) % 3u == key)
            same |= 1u << k;
        float f = m[w + (r * 7) % 32].f[r % 5];
        acc[w + l] += down + x + __builtin_popcount(b) * 3 +
                      __builtin_popcount(same) * 5 + (sum % 1000) + f;
      }
    }
    for (unsigned g = 0; g < n; ++g) {
      acc[g] += mix_sum(m[g], r);
      mix_step(m[g], r);
    }
  }
  for (unsigned g = 0; g < n; ++g)
    acc[g] += mix_sum(m[g], rounds);
  return acc;
}

// A device function that waits at collectives, called with live values in
// its caller.
__device__ __noinline__ int shuffle_and_add(int v) {
  int up = __shfl_up_sync(FULL, v, 3);
  return v + up + static_cast<int>(__reduce_max_sync(FULL, static_cast<unsigned>(v)));
}

__global__ void nested_kernel(int *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int x0 = t, x1 = t * 3, x2 = t ^ 0x55, x3 = t * t, x4 = 7 - t, x5 = t << 2;
  float f0 = t * 0.5f, f1 = t + 0.25f;
  int y = shuffle_and_add(x0 + x1);
  int z = shuffle_and_add(y ^ x2);
  out[t] = y + z + x0 + x1 + x2 + x3 + x4 + x5 + static_cast<int>(f0 + f1);
}

static int shuffle_and_add_host(const int *v, unsigned l) {
  int max = v[0];
  for (unsigned k = 1; k < 32; ++k)
    max = static_cast<unsigned>(v[k]) > static_cast<unsigned>(max) ? v[k] : max;
  return v[l] + (l >= 3 ? v[l - 3] : v[l]) + max;
}

// Cooperative groups' tiles: shfl_down and reduce on a 32-lane tile, and
// shfl_xor on 8-lane tiles.
__global__ void tiles_kernel(int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = static_cast<int>(t * 5 + 1), keep = static_cast<int>(t * 11);
  double dk = t * 0.125;
  int down = warp.shfl_down(v, 4);
  int total = cg::reduce(warp, v, cg::plus<int>());
  int flip = eight.shfl_xor(v, 5);
  out[t] = down + total + flip + keep + static_cast<int>(dk * 8);
}

// Partial masks: the even lanes alone, and a partial last warp (a block of
// 48 threads) whose 16 lanes use a full mask (lanes that do not exist take
// no part) and one of their own.
__global__ void partial_kernel(int *out) {
  unsigned t = threadIdx.x, lane = t % 32;
  int v = static_cast<int>(blockIdx.x * 1000 + t * 7), keep = static_cast<int>(t + 40);
  int r = v;
  if (lane % 2 == 0)
    r += __shfl_xor_sync(0x55555555u, v, 2);
  if (t >= 32) {
    r += __shfl_xor_sync(0xffffu, v, 8);
    r += static_cast<int>(__ballot_sync(FULL, v & 2));
  }
  __syncwarp();
  out[blockIdx.x * blockDim.x + t] = r + keep;
}

// The warp-aggregated atomic: the lanes with the same key elect a leader,
// which adds for all of them; each gets a distinct slot of its key.
__global__ void aggregated_kernel(unsigned *counts, unsigned *slot, int nkeys) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  unsigned key = (g * 7u) % static_cast<unsigned>(nkeys);
  unsigned peers = __match_any_sync(FULL, key);
  unsigned leader = __ffs(peers) - 1;
  unsigned base = 0;
  if (lane == leader)
    base = atomicAdd(&counts[key], __popc(peers));
  base = __shfl_sync(peers, base, leader);
  slot[g] = base + __popc(peers & ((1u << lane) - 1u));
}

int main() {
  // The rounds: 4 blocks of 256.
  {
    const unsigned n = 1024;
    const int rounds = 7;
    double *d_out;
    cudaMalloc(&d_out, n * sizeof(double));
    rounds_kernel<<<4, 256>>>(d_out, rounds);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<double> out(n), want = rounds_host(n, rounds);
    cudaMemcpy(out.data(), d_out, n * sizeof(double), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned g = 0; g < n; ++g) {
      double diff = out[g] - want[g];
      if (diff > 1e-6 * (want[g] < 0 ? -want[g] : want[g]) + 1e-9 ||
          -diff > 1e-6 * (want[g] < 0 ? -want[g] : want[g]) + 1e-9)
        bad++;
    }
    CHECK(bad == 0);
    cudaFree(d_out);
  }
  // A device function that waits: 2 blocks of 64.
  {
    const unsigned n = 128;
    int *d_out;
    cudaMalloc(&d_out, n * sizeof(int));
    nested_kernel<<<2, 64>>>(d_out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<int> out(n);
    cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned w = 0; w < n; w += 32) {
      int a[32], y[32], b[32];
      for (unsigned l = 0; l < 32; ++l)
        a[l] = static_cast<int>((w + l) + (w + l) * 3);
      for (unsigned l = 0; l < 32; ++l)
        y[l] = shuffle_and_add_host(a, l);
      for (unsigned l = 0; l < 32; ++l)
        b[l] = y[l] ^ static_cast<int>((w + l) ^ 0x55);
      for (unsigned l = 0; l < 32; ++l) {
        unsigned t = w + l;
        int z = shuffle_and_add_host(b, l);
        int want = y[l] + z + static_cast<int>(t) + static_cast<int>(t * 3) +
                   static_cast<int>(t ^ 0x55) + static_cast<int>(t * t) +
                   (7 - static_cast<int>(t)) + static_cast<int>(t << 2) +
                   static_cast<int>(t * 0.5f + (t + 0.25f));
        bad += out[t] != want;
      }
    }
    CHECK(bad == 0);
    cudaFree(d_out);
  }
  // Tiles: 2 blocks of 96.
  {
    const unsigned n = 192;
    int *d_out;
    cudaMalloc(&d_out, n * sizeof(int));
    tiles_kernel<<<2, 96>>>(d_out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<int> out(n);
    cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned t = 0; t < n; ++t) {
      unsigned w = t / 32 * 32, l = t % 32, e = t / 8 * 8, el = t % 8;
      auto v = [](unsigned u) { return static_cast<int>(u * 5 + 1); };
      int down = l + 4 < 32 ? v(t + 4) : v(t), total = 0;
      for (unsigned k = 0; k < 32; ++k)
        total += v(w + k);
      int flip = v(e + (el ^ 5u));
      int want = down + total + flip + static_cast<int>(t * 11) +
                 static_cast<int>(t * 0.125 * 8);
      bad += out[t] != want;
    }
    CHECK(bad == 0);
    cudaFree(d_out);
  }
  // Partial masks and a partial warp: 3 blocks of 48.
  {
    const unsigned nb = 3, bs = 48, n = nb * bs;
    int *d_out;
    cudaMalloc(&d_out, n * sizeof(int));
    partial_kernel<<<nb, bs>>>(d_out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<int> out(n);
    cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned b = 0; b < nb; ++b) {
      auto v = [b](unsigned t) { return static_cast<int>(b * 1000 + t * 7); };
      unsigned ballot = 0;
      for (unsigned t = 32; t < bs; ++t)
        ballot |= static_cast<unsigned>((v(t) & 2) != 0) << (t - 32);
      for (unsigned t = 0; t < bs; ++t) {
        int want = v(t);
        if (t % 2 == 0)
          want += v(t ^ 2u);
        if (t >= 32)
          want += v(32 + ((t - 32) ^ 8u)) + static_cast<int>(ballot);
        bad += out[b * bs + t] != want + static_cast<int>(t + 40);
      }
    }
    CHECK(bad == 0);
    cudaFree(d_out);
  }
  // Warp-aggregated atomics: 8 blocks of 128 over 5 keys.
  {
    const unsigned n = 1024;
    const int nkeys = 5;
    unsigned *d_counts, *d_slot;
    cudaMalloc(&d_counts, nkeys * sizeof(unsigned));
    cudaMalloc(&d_slot, n * sizeof(unsigned));
    cudaMemset(d_counts, 0, nkeys * sizeof(unsigned));
    aggregated_kernel<<<8, 128>>>(d_counts, d_slot, nkeys);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<unsigned> counts(nkeys), slot(n), want(nkeys, 0);
    cudaMemcpy(counts.data(), d_counts, nkeys * sizeof(unsigned),
               cudaMemcpyDeviceToHost);
    cudaMemcpy(slot.data(), d_slot, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (unsigned g = 0; g < n; ++g)
      want[(g * 7u) % nkeys]++;
    for (int k = 0; k < nkeys; ++k)
      CHECK(counts[k] == want[k]);
    // Each key's slots are 0 .. count - 1, each once.
    std::vector<std::vector<int>> seen(nkeys, std::vector<int>(n, 0));
    int bad = 0;
    for (unsigned g = 0; g < n; ++g) {
      unsigned k = (g * 7u) % nkeys;
      if (slot[g] >= want[k] || seen[k][slot[g]]++)
        bad++;
    }
    CHECK(bad == 0);
    cudaFree(d_counts);
    cudaFree(d_slot);
  }
  return finish();
}
