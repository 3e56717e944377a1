// CUDA arrays in memcpy nodes: cudaGraphAddMemcpyNode with cudaMemcpy3DParms
// naming srcArray/dstArray (2-D and 3-D, positions in elements), 3-D pitched
// pointers, a node's parameters read back and set again, to and from
// symbols, 1-D nodes, and the array copies captured from a stream
// (cudaMemcpy2DToArrayAsync, cudaMemcpy2DFromArrayAsync, cudaMemcpy3DAsync).
#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"

__device__ float table[16];

// out[y][x] = 2 * in[y][x] on pitched memory.
__global__ void twice(const float *in, size_t ipitch, float *out,
                      size_t opitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h)
    *(float *)((char *)out + y * opitch + x * 4) =
        2.0f * *(const float *)((const char *)in + y * ipitch + x * 4);
}

static float value(int x, int y, int z) { return x + 10.0f * y + 100.0f * z; }

int main() {
  const int W = 8, H = 4, D = 3;
  std::vector<float> host(W * H * D), back(W * H * D, -1.0f);
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        host[(z * H + y) * W + x] = value(x, y, z);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a3, b3;
  CHECK(cudaMalloc3DArray(&a3, &desc, make_cudaExtent(W, H, D)) ==
        cudaSuccess);
  CHECK(cudaMalloc3DArray(&b3, &desc, make_cudaExtent(W, H, D)) ==
        cudaSuccess);
  cudaPitchedPtr dev;
  CHECK(cudaMalloc3D(&dev, make_cudaExtent(W * sizeof(float), H, D)) ==
        cudaSuccess);

  // Host -> array (3-D), array -> array, array -> pitched 3-D memory,
  // pitched memory -> host: four nodes in a chain.
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(host.data(), W * sizeof(float), W, H);
  up.dstArray = a3;
  up.extent = make_cudaExtent(W, H, D);
  up.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DParms across = {};
  across.srcArray = a3;
  across.dstArray = b3;
  across.extent = make_cudaExtent(W, H, D);
  across.kind = cudaMemcpyDeviceToDevice;
  cudaMemcpy3DParms out = {};
  out.srcArray = b3;
  out.dstPtr = dev;
  out.extent = make_cudaExtent(W, H, D);
  out.kind = cudaMemcpyDeviceToDevice;
  cudaMemcpy3DParms down = {};
  down.srcPtr = dev;
  down.dstPtr = make_cudaPitchedPtr(back.data(), W * sizeof(float), W, H);
  down.extent = make_cudaExtent(W * sizeof(float), H, D);
  down.kind = cudaMemcpyDeviceToHost;
  cudaGraphNode_t n[4];
  CHECK(cudaGraphAddMemcpyNode(&n[0], g, nullptr, 0, &up) == cudaSuccess);
  CHECK(cudaGraphAddMemcpyNode(&n[1], g, &n[0], 1, &across) == cudaSuccess);
  CHECK(cudaGraphAddMemcpyNode(&n[2], g, &n[1], 1, &out) == cudaSuccess);
  CHECK(cudaGraphAddMemcpyNode(&n[3], g, &n[2], 1, &down) == cudaSuccess);

  // Read back: the arrays and element positions as given.
  cudaMemcpy3DParms got = {};
  CHECK(cudaGraphMemcpyNodeGetParams(n[1], &got) == cudaSuccess);
  CHECK(got.srcArray == a3 && got.dstArray == b3 && got.extent.width == W &&
        got.extent.depth == D && got.srcPtr.ptr == nullptr);

  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(back == host);

  // A sub-box: 3 x 2 x 2 elements from (2, 1, 1) of the array to (0, 0, 0)
  // of the pitched memory, set on the executable graph's node.
  cudaMemcpy3DParms box = out;
  box.srcPos = make_cudaPos(2, 1, 1);
  box.extent = make_cudaExtent(3, 2, 2);
  CHECK(cudaMemset3D(dev, 0, make_cudaExtent(W * sizeof(float), H, D)) ==
        cudaSuccess);
  CHECK(cudaGraphExecMemcpyNodeSetParams(x, n[2], &box) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);
  cudaStreamSynchronize(0);
  int bad = 0;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int xx = 0; xx < W; ++xx) {
        float want = (xx < 3 && y < 2 && z < 2)
                         ? value(xx + 2, y + 1, z + 1)
                         : 0.0f;
        bad += back[(z * H + y) * W + xx] != want;
      }
  CHECK(bad == 0);

  // A node naming an array that is not one, or both an array and a pointer.
  cudaMemcpy3DParms wrong = up;
  wrong.dstPtr = dev;
  cudaGraphNode_t w;
  CHECK(cudaGraphAddMemcpyNode(&w, g, nullptr, 0, &wrong) ==
        cudaErrorInvalidValue);
  cudaGetLastError();

  // ---- Symbols and 1-D nodes. ----
  float ramp[16], result[16] = {};
  for (int i = 0; i < 16; ++i)
    ramp[i] = 0.5f * i;
  float *lin;
  cudaMalloc(&lin, sizeof ramp);
  cudaGraph_t gs;
  cudaGraphCreate(&gs, 0);
  cudaGraphNode_t to, mid, from;
  CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, gs, nullptr, 0, table, ramp,
                                       sizeof ramp, 0,
                                       cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaGraphAddMemcpyNodeFromSymbol(&mid, gs, &to, 1, lin, table,
                                         8 * sizeof(float),
                                         8 * sizeof(float),
                                         cudaMemcpyDeviceToDevice) ==
        cudaSuccess);
  CHECK(cudaGraphAddMemcpyNode1D(&from, gs, &mid, 1, result, lin,
                                 8 * sizeof(float),
                                 cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaGraphExec_t xs;
  CHECK(cudaGraphInstantiate(&xs, gs, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(xs, 0) == cudaSuccess);
  cudaStreamSynchronize(0);
  for (int i = 0; i < 8; ++i)
    CHECK(result[i] == ramp[8 + i]);
  // Set again: the first half, by the 1-D setter.
  CHECK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(
            xs, mid, lin, table, 8 * sizeof(float), 0,
            cudaMemcpyDeviceToDevice) == cudaSuccess);
  CHECK(cudaGraphLaunch(xs, 0) == cudaSuccess);
  cudaStreamSynchronize(0);
  for (int i = 0; i < 8; ++i)
    CHECK(result[i] == ramp[i]);
  CHECK(cudaGraphMemcpyNodeSetParams1D(from, result, lin, 4 * sizeof(float),
                                       cudaMemcpyDeviceToHost) == cudaSuccess);

  // ---- Captured: 2-D array copies and a 3-D copy around a kernel. ----
  cudaArray_t a2;
  CHECK(cudaMallocArray(&a2, &desc, W, H) == cudaSuccess);
  float *pin, *pout;
  size_t ipitch, opitch;
  cudaMallocPitch(&pin, &ipitch, W * sizeof(float), H);
  cudaMallocPitch(&pout, &opitch, W * sizeof(float), H);
  std::vector<float> plane(W * H), twice_back(W * H, 0.0f),
      corner(W * H, -1.0f);
  for (int i = 0; i < W * H; ++i)
    plane[i] = 1.0f + i;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t gc;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  CHECK(cudaMemcpy2DToArrayAsync(a2, 0, 0, plane.data(), W * sizeof(float),
                                 W * sizeof(float), H, cudaMemcpyHostToDevice,
                                 s) == cudaSuccess);
  CHECK(cudaMemcpy2DFromArrayAsync(pin, ipitch, a2, 0, 0, W * sizeof(float),
                                   H, cudaMemcpyDeviceToDevice,
                                   s) == cudaSuccess);
  twice<<<dim3(1, H), 32, 0, s>>>(pin, ipitch, pout, opitch, W, H);
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr(pout, opitch, W, H);
  p3.dstPtr = make_cudaPitchedPtr(twice_back.data(), W * sizeof(float), W, H);
  p3.extent = make_cudaExtent(W * sizeof(float), H, 1);
  p3.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&p3, s) == cudaSuccess);
  // Two elements from (5, 2) of the array into the host plane's corner.
  CHECK(cudaMemcpy2DFromArrayAsync(corner.data(), W * sizeof(float), a2,
                                   5 * sizeof(float), 2, 2 * sizeof(float), 1,
                                   cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s, &gc) == cudaSuccess);
  // Nothing ran during the capture.
  CHECK(twice_back[W * H - 1] == 0.0f && corner[0] == -1.0f);
  size_t count = 0;
  cudaGraphGetNodes(gc, nullptr, &count);
  CHECK(count == 5);
  cudaGraphExec_t xc;
  CHECK(cudaGraphInstantiate(&xc, gc, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(xc, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  for (int i = 0; i < W * H; ++i)
    CHECK(twice_back[i] == 2.0f * plane[i]);
  CHECK(corner[0] == plane[2 * W + 5] && corner[1] == plane[2 * W + 6] &&
        corner[2] == -1.0f);

  cudaGraphExecDestroy(x);
  cudaGraphExecDestroy(xs);
  cudaGraphExecDestroy(xc);
  cudaGraphDestroy(g);
  cudaGraphDestroy(gs);
  cudaGraphDestroy(gc);
  cudaStreamDestroy(s);
  cudaFreeArray(a3);
  cudaFreeArray(b3);
  cudaFreeArray(a2);
  cudaFree(dev.ptr);
  cudaFree(lin);
  cudaFree(pin);
  cudaFree(pout);
  return finish();
}
