// CUEMU_OPTIONS: -arch=sm_86 -lineinfo -Iimg/include img/src/image_io.cpp
// NVCC_OPTIONS: -Iimg/include
// Denoise a blob image with 3x3 and 5x5 medians, open it (erode then dilate),
// label its connected components with union-find and check each step on the host.
// Under --check=race, cuemu reports ccl::compressPaths (img/kernels/ccl.cuh):
// its plain store parent[i] = root races with other blocks' plain loads in
// findRoot, and d_changed = 1 is stored by many threads. Public CCL codes do
// this (any value read is an ancestor, so the result is right), and
// compute-sanitizer's racecheck, which looks at shared memory only, says
// nothing; by the PTX memory model it is a data race all the same, and the
// report stays (docs/checkers.md: plain global accesses between blocks race
// unless fenced or volatile).
#include <algorithm>
#include <cstdio>
#include <map>
#include <queue>
#include <vector>

#include <cuda_check.h>
#include <image_io.h>
#include "img/kernels/ccl.cuh"
#include "img/kernels/median_morph.cuh"

static std::vector<unsigned char> hostMedian(const std::vector<unsigned char> &in, int w, int h, int r) {
  std::vector<unsigned char> out(in.size()), win;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      win.clear();
      for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++)
          win.push_back(in[std::min(std::max(y + dy, 0), h - 1) * w + std::min(std::max(x + dx, 0), w - 1)]);
      std::nth_element(win.begin(), win.begin() + win.size() / 2, win.end());
      out[y * w + x] = win[win.size() / 2];
    }
  return out;
}

static std::vector<unsigned char> hostMorph(const std::vector<unsigned char> &in, int w, int h, int r, bool erode) {
  std::vector<unsigned char> out(in.size());
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int acc = erode ? 255 : 0;
      for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) {
          int xx = x + dx, yy = y + dy;
          int v = (xx >= 0 && yy >= 0 && xx < w && yy < h) ? in[yy * w + xx] : acc;
          acc = erode ? std::min(acc, v) : std::max(acc, v);
        }
      out[y * w + x] = (unsigned char)acc;
    }
  return out;
}

// Labels by BFS; returns the number of components.
static int hostLabels(const std::vector<unsigned char> &img, int w, int h, std::vector<int> &label) {
  label.assign(img.size(), -1);
  int count = 0;
  for (int s = 0; s < w * h; s++) {
    if (!img[s] || label[s] >= 0) continue;
    std::queue<int> q;
    q.push(s);
    label[s] = count;
    while (!q.empty()) {
      int i = q.front();
      q.pop();
      int x = i % w, y = i / w;
      const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (auto &d : nb) {
        int xx = x + d[0], yy = y + d[1];
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        int j = yy * w + xx;
        if (img[j] && label[j] < 0) {
          label[j] = count;
          q.push(j);
        }
      }
    }
    count++;
  }
  return count;
}

template <int R>
static bool checkMedian(const std::vector<unsigned char> &h_img, unsigned char *d_in, unsigned char *d_out, int w, int h) {
  dim3 block(TILE_W, TILE_H), grid(iDivUp(w, TILE_W), iDivUp(h, TILE_H));
  medianFilter<R><<<grid, block>>>(d_out, d_in, w, h);
  getLastCudaError("medianFilter");
  std::vector<unsigned char> out(w * h);
  checkCudaErrors(cudaMemcpy(out.data(), d_out, w * h, cudaMemcpyDeviceToHost));
  int bad = 0;
  std::vector<unsigned char> ref = hostMedian(h_img, w, h, R);
  for (int i = 0; i < w * h; i++) bad += out[i] != ref[i];
  printf("median %dx%d: %d pixels differ\n", 2 * R + 1, 2 * R + 1, bad);
  return bad == 0;
}

int main() {
  const int w = 150, h = 110;
  std::string path = tempImagePath("blobs.pgm");
  savePNM(path, makeBlobImage(w, h, 40, 5u));
  Image img;
  if (!loadPNM(path, img)) return 1;
  remove(path.c_str());
  const int n = w * h;

  unsigned char *d_a, *d_b, *d_c;
  checkCudaErrors(cudaMalloc(&d_a, n));
  checkCudaErrors(cudaMalloc(&d_b, n));
  checkCudaErrors(cudaMalloc(&d_c, n));
  checkCudaErrors(cudaMemcpy(d_a, img.data.data(), n, cudaMemcpyHostToDevice));

  bool ok = checkMedian<2>(img.data, d_a, d_b, w, h);
  ok &= checkMedian<1>(img.data, d_a, d_b, w, h);  // d_b: the 3x3 median
  std::vector<unsigned char> med = hostMedian(img.data, w, h, 1);

  // Opening: erode then dilate.
  launchMorphology<ErodeOp, 1>(d_c, d_b, w, h);
  launchMorphology<DilateOp, 1>(d_a, d_c, w, h);
  getLastCudaError("morphology");
  std::vector<unsigned char> opened(n);
  checkCudaErrors(cudaMemcpy(opened.data(), d_a, n, cudaMemcpyDeviceToHost));
  std::vector<unsigned char> refOpen = hostMorph(hostMorph(med, w, h, 1, true), w, h, 1, false);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += opened[i] != refOpen[i];
  printf("opening: %d pixels differ\n", bad);
  ok &= bad == 0;

  // Labelling of the opened image.
  int *d_parent;
  unsigned int *d_count;
  checkCudaErrors(cudaMalloc(&d_parent, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_count, sizeof(unsigned int)));
  checkCudaErrors(cudaMemset(d_count, 0, sizeof(unsigned int)));
  dim3 block(16, 16), grid(iDivUp(w, 16), iDivUp(h, 16));
  ccl::initLabels<<<grid, block>>>(d_parent, d_a, w, h);
  ccl::mergeLabels<<<grid, block>>>(d_parent, d_a, w, h);
  int iterations = 0, changed = 1;
  while (changed && iterations < 64) {
    changed = 0;
    checkCudaErrors(cudaMemcpyToSymbol(ccl::d_changed, &changed, sizeof(int)));
    ccl::compressPaths<<<32, 128>>>(d_parent, n);
    checkCudaErrors(cudaMemcpyFromSymbol(&changed, ccl::d_changed, sizeof(int)));
    iterations++;
  }
  ccl::countRoots<<<8, 128>>>(d_parent, n, d_count);
  getLastCudaError("ccl");
  std::vector<int> parent(n);
  unsigned int devCount = 0;
  checkCudaErrors(cudaMemcpy(parent.data(), d_parent, n * sizeof(int), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(&devCount, d_count, sizeof(devCount), cudaMemcpyDeviceToHost));

  std::vector<int> ref;
  int hostCount = hostLabels(refOpen, w, h, ref);
  // Same partition: a one-to-one map between device roots and host labels.
  std::map<int, int> d2h, h2d;
  int mismatch = 0;
  for (int i = 0; i < n; i++) {
    if ((parent[i] < 0) != (ref[i] < 0)) {
      mismatch++;
      continue;
    }
    if (ref[i] < 0) continue;
    if (parent[parent[i]] != parent[i]) mismatch++;  // not fully compressed
    auto a = d2h.emplace(parent[i], ref[i]), b = h2d.emplace(ref[i], parent[i]);
    mismatch += a.first->second != ref[i] || b.first->second != parent[i];
  }
  printf("labels: %d components on the device (%u roots, %d compress passes), %d on the host, %d mismatches\n",
         (int)d2h.size(), devCount, iterations, hostCount, mismatch);
  ok &= mismatch == 0 && (int)d2h.size() == hostCount && (int)devCount == hostCount && hostCount > 3;

  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  cudaFree(d_parent);
  cudaFree(d_count);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
