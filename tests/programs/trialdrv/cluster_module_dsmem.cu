// cluster_module_dsmem.cu: a cluster kernel in a module (compiled by NVRTC
// and loaded with cuModuleLoadData), launched with cuLaunchKernelEx and
// the cluster-dimension attribute. Each block reads every other block's
// static __shared__ variable through cluster.map_shared_rank: the module's
// static shared memory is a dlopen'ed object's thread-local block, which
// is not at one distance from the thread pointer in every worker (the
// mapping read a wrong address: CUDA_ERROR_ILLEGAL_ADDRESS). The launch
// attributes are written as C++ code writes them, a
// CUclusterSchedulingPolicy value into the union's field. Last, NVRTC
// makes no cubin for a virtual architecture (nvrtcGetCUBINSize is 0 for
// compute_90), and its PTX loads.
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cuda.h>
#include <nvrtc.h>

#include <string>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)

static const char *source = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void ring_sum(int *out) {
  __shared__ int mine;
  __shared__ int spare[8];
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) { mine = (int)cluster.block_rank() + 1; spare[7] = 100 * (int)blockIdx.x; }
  cluster.sync();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) total += *cluster.map_shared_rank(&mine, r);
    unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
    int *theirs = cluster.map_shared_rank(spare, next);
    out[2 * blockIdx.x] = total;
    out[2 * blockIdx.x + 1] = theirs[7];
  }
  cluster.sync();
}
)";

static std::vector<char> compile(const char *arch, bool cubin, size_t *cubin_size) {
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, source, "ring_sum.cu", 0, nullptr, nullptr));
  const char *opts[] = {arch, "-std=c++17"};
  nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
  CHECK(r == NVRTC_SUCCESS);
  std::vector<char> image;
  if (r == NVRTC_SUCCESS) {
    NVRTC(nvrtcGetCUBINSize(prog, cubin_size));
    size_t size = *cubin_size;
    if (!cubin)
      NVRTC(nvrtcGetPTXSize(prog, &size));
    image.resize(size);
    if (cubin)
      NVRTC(nvrtcGetCUBIN(prog, image.data()));
    else
      NVRTC(nvrtcGetPTX(prog, image.data()));
  }
  nvrtcDestroyProgram(&prog);
  return image;
}

static void run(const std::vector<char> &image) {
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image.data()));
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "ring_sum"));
  const unsigned blocks = 16, cluster = 4;
  CUdeviceptr d_out;
  CU(cuMemAlloc(&d_out, 2 * blocks * sizeof(int)));
  CUlaunchConfig cfg = {};
  cfg.gridDimX = blocks;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 64;
  cfg.blockDimY = cfg.blockDimZ = 1;
  CUlaunchAttribute attrs[2];
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = cluster;
  attrs[0].value.clusterDim.y = attrs[0].value.clusterDim.z = 1;
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attrs[1].value.clusterSchedulingPolicyPreference =
      CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  cfg.attrs = attrs;
  cfg.numAttrs = 2;
  void *args[] = {&d_out};
  CU(cuLaunchKernelEx(&cfg, f, args, nullptr));
  std::vector<int> out(2 * blocks);
  CU(cuMemcpyDtoH(out.data(), d_out, out.size() * sizeof(int)));
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned next = b / cluster * cluster + (b + 1) % cluster;
    CHECK(out[2 * b] == 10);
    CHECK(out[2 * b + 1] == 100 * (int)next);
  }
  CU(cuMemFree(d_out));
  CU(cuModuleUnload(mod));
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  size_t cubin_size = 0;
  std::vector<char> cubin = compile("-arch=sm_90", true, &cubin_size);
  CHECK(cubin_size > 0);
  if (!cubin.empty())
    run(cubin);
  // A virtual architecture: no cubin, the PTX is the image.
  std::vector<char> ptx = compile("--gpu-architecture=compute_90", false, &cubin_size);
  CHECK(cubin_size == 0);
  if (!ptx.empty())
    run(ptx);
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
