// sw_simd.cu: a database search, CUDASW++ style: the query profile in a
// texture, two database sequences per thread in 16-bit SIMD lanes, the
// database in two halves on two streams from pinned memory; every score
// checked against the host Gotoh DP.
#include "bio/host_ref.cpp"
#include <algorithm>
#include "bio/host_ref.h"
#include "bio/sw_simd.cuh"

int main() {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::mt19937 rng(555u);
  int8_t matrix[SW_ALPHA * SW_ALPHA];
  make_blosum_like(matrix);
  const SwScoring sc{10, 2};
  const int qlen = 40, count = 240;
  std::uniform_int_distribution<int> res(0, SW_ALPHA - 1);
  std::vector<uint8_t> query(qlen);
  for (auto& r : query) r = (uint8_t)res(rng);
  // The profile: row r holds the score of each query residue against r;
  // the padding row scores low everywhere.
  const int rows = SW_ALPHA + 1;
  std::vector<short> profile(rows * qlen);
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < qlen; ++i)
      profile[r * qlen + i] = r < SW_ALPHA ? matrix[query[i] * SW_ALPHA + r] : -100;
  // Two halves of the database, each with its own offsets.
  int* h_offsets;
  uint8_t* h_residues;
  int* h_scores;
  std::vector<int> lens(count);
  int total = 0;
  for (int s = 0; s < count; ++s) total += (lens[s] = 20 + rng() % 180);
  CUDA_CHECK(cudaMallocHost(&h_offsets, (count + 2) * sizeof(int)));
  CUDA_CHECK(cudaHostAlloc(&h_residues, total, cudaHostAllocDefault));
  CUDA_CHECK(cudaMallocHost(&h_scores, count * sizeof(int)));
  const int half = count / 2;
  {
    int off = 0;
    for (int s = 0; s < count; ++s) {
      if (s == half) h_offsets[half] = off;  // the end of the first half
      h_offsets[s + (s >= half)] = off;
      for (int k = 0; k < lens[s]; ++k) {
        const int at = rng() % (qlen - 10);
        h_residues[off + k] = (k >= 5 && k < 25 && s % 7 == 0) ? query[at + (k - 5) % 10] : (uint8_t)res(rng);
      }
      off += lens[s];
    }
    h_offsets[count + 1] = off;
  }
  // The second half's offsets are h_offsets[half+1 .. count+1], relative to
  // the start of the whole residue array.
  short* d_profile;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&d_profile, &pitch, qlen * sizeof(short), rows));
  CUDA_CHECK(cudaMemcpy2D(d_profile, pitch, profile.data(), qlen * sizeof(short), qlen * sizeof(short), rows,
                          cudaMemcpyHostToDevice));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = d_profile;
  rd.res.pitch2D.desc = cudaCreateChannelDesc<short>();
  rd.res.pitch2D.width = qlen;
  rd.res.pitch2D.height = rows;
  rd.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  cudaTextureObject_t tex;
  CUDA_CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));

  uint8_t* d_residues;
  int *d_offsets, *d_scores;
  unsigned long long *d_cells, *d_best;
  CUDA_CHECK(cudaMalloc(&d_residues, total));
  CUDA_CHECK(cudaMalloc(&d_offsets, (count + 2) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_scores, count * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_cells, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_best, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_cells, 0, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_best, 0, sizeof(unsigned long long)));
  int blocks_per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, swsimd::sw_simd_kernel<swsimd::kMaxQuery>,
                                                           128, 0));
  CUDA_CHECK(cudaFuncSetCacheConfig(swsimd::sw_simd_kernel<swsimd::kMaxQuery>, cudaFuncCachePreferL1));
  cudaStream_t streams[2];
  for (auto& s : streams) CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, streams[0]));
  for (int h = 0; h < 2; ++h) {
    const int first = h ? half : 0, n = h ? count - half : half;
    const int* offs = h_offsets + first + h;
    const int lo = offs[0], hi = offs[n];
    CUDA_CHECK(cudaMemcpyAsync(d_residues + lo, h_residues + lo, hi - lo, cudaMemcpyHostToDevice, streams[h]));
    CUDA_CHECK(cudaMemcpyAsync(d_offsets + first + h, offs, (n + 1) * sizeof(int), cudaMemcpyHostToDevice, streams[h]));
    swsimd::DbView db{d_residues, d_offsets + first + h, n};
    const int threads = (n + 1) / 2;
    swsimd::sw_simd_kernel<swsimd::kMaxQuery><<<(threads + 127) / 128, 128, 0, streams[h]>>>(
        tex, qlen, db, sc, d_scores + first, d_cells, d_best);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpyAsync(h_scores + first, d_scores + first, n * sizeof(int), cudaMemcpyDeviceToHost, streams[h]));
  }
  CUDA_CHECK(cudaStreamSynchronize(streams[1]));
  CUDA_CHECK(cudaEventRecord(stop, streams[0]));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  unsigned long long cells = 0, best = 0;
  CUDA_CHECK(cudaMemcpy(&cells, d_cells, sizeof(cells), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&best, d_best, sizeof(best), cudaMemcpyDeviceToHost));

  int bad = 0;
  unsigned long long ref_cells = 0;
  for (int s = 0; s < count; ++s) {
    const int start_at = h_offsets[s + (s >= half)];
    const SwResult r = host_sw(query.data(), qlen, h_residues + start_at, lens[s], matrix, sc, nullptr, nullptr);
    ref_cells += (unsigned long long)qlen * lens[s];
    if (r.score != h_scores[s] && bad++ < 5) printf("sequence %d: %d expected %d\n", s, h_scores[s], r.score);
  }
  // Each half reports its best with its index within the half.
  unsigned long long ref_key = 0;
  for (int s = 0; s < count; ++s) {
    const int local = s >= half ? s - half : s;
    ref_key = std::max(ref_key, ((unsigned long long)(unsigned)h_scores[s] << 32) | (0xffffffffu - (unsigned)local));
  }
  if (best != ref_key && bad++ < 5) printf("best key %llx expected %llx\n", best, ref_key);
  if (cells != ref_cells && bad++ < 5) printf("cells %llu expected %llu\n", cells, ref_cells);
  printf("%s: %d blocks/SM; query %d vs %d sequences, %llu cells, best score %u, %.3f ms (%.2f GCUPS)\n",
         prop.name, blocks_per_sm, qlen, count, cells, (unsigned)(best >> 32), ms, cells / (ms * 1e6));
  for (auto& s : streams) CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaDestroyTextureObject(tex));
  CUDA_CHECK(cudaFree(d_profile));
  CUDA_CHECK(cudaFree(d_residues));
  CUDA_CHECK(cudaFree(d_offsets));
  CUDA_CHECK(cudaFree(d_scores));
  CUDA_CHECK(cudaFree(d_cells));
  CUDA_CHECK(cudaFree(d_best));
  CUDA_CHECK(cudaFreeHost(h_offsets));
  CUDA_CHECK(cudaFreeHost(h_residues));
  CUDA_CHECK(cudaFreeHost(h_scores));
  return bio::report("sw_simd", bad == 0);
}
