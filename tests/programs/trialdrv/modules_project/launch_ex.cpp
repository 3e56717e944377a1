// launch_ex.cpp: cuLaunchKernelEx with launch attributes: cluster dimensions, cooperative,
// priority, dynamic shared memory above 48 KiB with the function attribute,
// memory sync domain, and occupancy queries for clusters.
#include "drv_helpers.h"
#include <vector>

int main(int argc, char **argv) {
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  CUcontext ctx;
  checkCudaErrors(cuCtxCreate(&ctx, NULL, CU_CTX_SCHED_BLOCKING_SYNC, dev));
  CUmodule mod;
  checkCudaErrors(cuModuleLoad(&mod, "launch_ex_kernels.fatbin"));
  CUfunction fcluster, fgrid, fdyn;
  checkCudaErrors(cuModuleGetFunction(&fcluster, mod, "cluster_sum"));
  checkCudaErrors(cuModuleGetFunction(&fgrid, mod, "grid_sum"));
  checkCudaErrors(cuModuleGetFunction(&fdyn, mod, "dyn_smem"));
  bool ok = true;
  int lo, hi;
  checkCudaErrors(cuCtxGetStreamPriorityRange(&lo, &hi));
  CUstream stream;
  checkCudaErrors(cuStreamCreateWithPriority(&stream, CU_STREAM_NON_BLOCKING, hi));

  // Clusters of 4 blocks.
  checkCudaErrors(cuFuncSetAttribute(fcluster, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  CUdeviceptr dout;
  checkCudaErrors(cuMemAlloc(&dout, 16 * sizeof(int)));
  CUlaunchConfig cfg = {};
  cfg.gridDimX = 16; cfg.gridDimY = 1; cfg.gridDimZ = 1;
  cfg.blockDimX = 32; cfg.blockDimY = 1; cfg.blockDimZ = 1;
  cfg.sharedMemBytes = 0;
  cfg.hStream = stream;
  CUlaunchAttribute attrs[3];
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = 4; attrs[0].value.clusterDim.y = 1; attrs[0].value.clusterDim.z = 1;
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attrs[1].value.clusterSchedulingPolicyPreference = CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  attrs[2].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
  attrs[2].value.priority = hi;
  cfg.attrs = attrs; cfg.numAttrs = 3;
  int maxClusters = 0;
  checkCudaErrors(cuOccupancyMaxActiveClusters(&maxClusters, fcluster, &cfg));
  int maxClusterSize = 0;
  checkCudaErrors(cuOccupancyMaxPotentialClusterSize(&maxClusterSize, fcluster, &cfg));
  printf("max active clusters %d, max cluster size %d\n", maxClusters, maxClusterSize);
  if (maxClusters < 1 || maxClusterSize < 4) ok = false;
  void *cargs[] = {&dout};
  checkCudaErrors(cuLaunchKernelEx(&cfg, fcluster, cargs, NULL));
  int h[16];
  checkCudaErrors(cuMemcpyDtoHAsync(h, dout, sizeof h, stream));
  checkCudaErrors(cuStreamSynchronize(stream));
  for (int i = 0; i < 16; ++i) if (h[i] != 10) { printf("cluster sum[%d] = %d\n", i, h[i]); ok = false; break; }

  // Cooperative launch through the attribute, with an occupancy-derived grid.
  int numSms = 0, perSm = 0;
  checkCudaErrors(cuDeviceGetAttribute(&numSms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  checkCudaErrors(cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, fgrid, 256, 0));
  int coop = 0;
  checkCudaErrors(cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, dev));
  int blocks = numSms * perSm < 8 ? numSms * perSm : 8;
  const int n = 100000;
  std::vector<int> in(n);
  long long ref = 0;
  for (int i = 0; i < n; ++i) { in[i] = i % 7; ref += in[i]; }
  CUdeviceptr din, dpart, dres;
  checkCudaErrors(cuMemAlloc(&din, n * 4)); checkCudaErrors(cuMemAlloc(&dpart, blocks * 4));
  checkCudaErrors(cuMemAlloc(&dres, 4));
  checkCudaErrors(cuMemcpyHtoD(din, in.data(), n * 4));
  CUlaunchAttribute cattrs[2];
  cattrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE; cattrs[0].value.cooperative = 1;
  cattrs[1].id = CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN; cattrs[1].value.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  CUlaunchConfig ccfg = {};
  ccfg.gridDimX = blocks; ccfg.gridDimY = ccfg.gridDimZ = 1;
  ccfg.blockDimX = 256; ccfg.blockDimY = ccfg.blockDimZ = 1;
  ccfg.hStream = stream; ccfg.attrs = cattrs; ccfg.numAttrs = 2;
  int nn = n;
  void *gargs[] = {&din, &dpart, &dres, &nn};
  checkCudaErrors(cuLaunchKernelEx(&ccfg, fgrid, gargs, NULL));
  int res = 0;
  checkCudaErrors(cuStreamSynchronize(stream));
  checkCudaErrors(cuMemcpyDtoH(&res, dres, 4));
  printf("cooperative (%d SMs x %d, attr %d): %d blocks, sum %d (expect %lld)\n", numSms, perSm, coop, blocks, res, ref);
  if (res != ref) ok = false;

  // Too many blocks for a cooperative launch: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
  ccfg.gridDimX = numSms * perSm + 1;
  CUresult big = cuLaunchKernelEx(&ccfg, fgrid, gargs, NULL);
  printf("oversized cooperative launch: %d\n", (int)big);
  if (big != CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) ok = false;

  // Dynamic shared memory over 48 KiB needs the function attribute first.
  int optin = 0;
  checkCudaErrors(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  size_t want = 64 * 1024;
  CUlaunchConfig dcfg = {};
  dcfg.gridDimX = 2; dcfg.gridDimY = dcfg.gridDimZ = 1;
  dcfg.blockDimX = 128; dcfg.blockDimY = dcfg.blockDimZ = 1;
  dcfg.sharedMemBytes = (unsigned)want; dcfg.hStream = stream;
  CUdeviceptr dfl;
  checkCudaErrors(cuMemAlloc(&dfl, 256 * sizeof(float)));
  void *dargs[] = {&dfl};
  CUresult before = cuLaunchKernelEx(&dcfg, fdyn, dargs, NULL);
  printf("64 KiB without opt-in: %d\n", (int)before);
  if (before != CUDA_ERROR_INVALID_VALUE) ok = false;
  checkCudaErrors(cuFuncSetAttribute(fdyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)want));
  checkCudaErrors(cuLaunchKernelEx(&dcfg, fdyn, dargs, NULL));
  float hf[256];
  checkCudaErrors(cuStreamSynchronize(stream));
  checkCudaErrors(cuMemcpyDtoH(hf, dfl, sizeof hf));
  for (int i = 0; i < 256; ++i) if (hf[i] != (127 - i % 128) * 2.0f) { printf("dyn smem wrong %d\n", i); ok = false; break; }
  printf("opt-in limit %d\n", optin);

  checkCudaErrors(cuStreamDestroy(stream));
  cuMemFree(dout); cuMemFree(din); cuMemFree(dpart); cuMemFree(dres); cuMemFree(dfl);
  checkCudaErrors(cuModuleUnload(mod));
  checkCudaErrors(cuCtxDestroy(ctx));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
