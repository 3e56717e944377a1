// launch_modes.cu: the order CUDA promises for graphs launched from the
// device (programming guide, "Device Graph Launch"). A host graph H runs
// step 1, which launches graph F fire-and-forget, then step 2, which tail
// launches T1 and T2 and launches S2 as a sibling. F launches S as a
// sibling (a child of H's environment); T1 tail launches TT. So: T1 runs
// after steps 1 and 2, F and S (a tail launch waits for the launching
// graph's whole environment, its fire-and-forget children and their
// siblings included); TT runs after T1 and before T2 (a tail graph's own
// tail launches come before the rest of the list); S2 runs before the
// host's launch completes. cudaGetCurrentGraphExec is the device graph a
// kernel runs in, and 0 in the host graph. The launch is run twice (the
// limits and pending launches start afresh).
// CUEMU_OPTIONS: -std=c++17 -rdc=true
// NVCC_OPTIONS: -rdc=true
#include "devgraph_kernels.cuh"

enum { TAG_STEP1 = 1, TAG_STEP2 = 2, TAG_F = 10, TAG_T1 = 20, TAG_T2 = 21,
       TAG_TT = 22, TAG_S = 30, TAG_S2 = 31, TAGS = 32, LAUNCHES = 8 };

int main() {
  cudaStream_t stream;
  RT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int *log, *pos, *modes, *errors;
  cudaGraphExec_t *current, *execs;
  RT(cudaMalloc(&log, 64 * sizeof(int)));
  RT(cudaMalloc(&pos, sizeof(int)));
  RT(cudaMalloc(&modes, LAUNCHES * sizeof(int)));
  RT(cudaMalloc(&errors, LAUNCHES * sizeof(int)));
  RT(cudaMalloc(&current, TAGS * sizeof(cudaGraphExec_t)));
  RT(cudaMalloc(&execs, LAUNCHES * sizeof(cudaGraphExec_t)));
  Step base = {log, pos, current, execs, modes, errors, 0, 0, 0};

  // Launch slots: 0 F (from step 1), 1 S (from F), 2 TT (from T1),
  // 3 T1, 4 T2, 5 S2 (from step 2).
  Step s = base;
  s.tag = TAG_S;
  cudaGraphExec_t S = device_step(s, stream);
  s = base;
  s.tag = TAG_S2;
  cudaGraphExec_t S2 = device_step(s, stream);
  s = base;
  s.tag = TAG_TT;
  cudaGraphExec_t TT = device_step(s, stream);
  s = base;
  s.tag = TAG_T2;
  cudaGraphExec_t T2 = device_step(s, stream);
  s = base;
  s.tag = TAG_F;
  s.first = 1;
  s.count = 1;
  cudaGraphExec_t F = device_step(s, stream);
  s = base;
  s.tag = TAG_T1;
  s.first = 2;
  s.count = 1;
  cudaGraphExec_t T1 = device_step(s, stream);
  cudaGraphExec_t hexecs[LAUNCHES] = {F, S, TT, T1, T2, S2, nullptr, nullptr};
  int hmodes[LAUNCHES] = {FIRE_AND_FORGET, SIBLING, TAIL, TAIL, TAIL, SIBLING,
                          PLAIN, PLAIN};
  RT(cudaMemcpy(execs, hexecs, sizeof hexecs, cudaMemcpyHostToDevice));
  RT(cudaMemcpy(modes, hmodes, sizeof hmodes, cudaMemcpyHostToDevice));

  // The host graph: step 1, then step 2.
  cudaGraph_t hg;
  RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  s = base;
  s.tag = TAG_STEP1;
  s.first = 0;
  s.count = 1;
  step_kernel<<<1, 32, 0, stream>>>(s);
  s = base;
  s.tag = TAG_STEP2;
  s.first = 3;
  s.count = 3;
  step_kernel<<<1, 32, 0, stream>>>(s);
  RT(cudaStreamEndCapture(stream, &hg));
  cudaGraphExec_t H;
  RT(cudaGraphInstantiate(&H, hg, 0));

  for (int round = 0; round < 2; ++round) {
    RT(cudaMemset(log, 0, 64 * sizeof(int)));
    RT(cudaMemset(pos, 0, sizeof(int)));
    RT(cudaMemset(errors, 0xff, LAUNCHES * sizeof(int)));
    RT(cudaMemset(current, 0xff, TAGS * sizeof(cudaGraphExec_t)));
    RT(cudaGraphLaunch(H, stream));
    RT(cudaStreamSynchronize(stream));
    int hlog[64], hpos = 0, herrors[LAUNCHES];
    cudaGraphExec_t hcurrent[TAGS];
    RT(cudaMemcpy(hlog, log, sizeof hlog, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(&hpos, pos, sizeof hpos, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(herrors, errors, sizeof herrors, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(hcurrent, current, sizeof hcurrent,
                  cudaMemcpyDeviceToHost));
    for (int i = 0; i < 6; ++i)
      CHECK(herrors[i] == (int)cudaSuccess);
    CHECK(hpos == LAUNCHES);
    int at[TAGS];
    for (int t = 0; t < TAGS; ++t)
      at[t] = -1;
    for (int i = 0; i < hpos && i < 64; ++i)
      if (hlog[i] >= 0 && hlog[i] < TAGS)
        at[hlog[i]] = i;
    const int tags[LAUNCHES] = {TAG_STEP1, TAG_STEP2, TAG_F, TAG_T1,
                                TAG_T2,    TAG_TT,    TAG_S, TAG_S2};
    for (int i = 0; i < LAUNCHES; ++i)
      CHECK(at[tags[i]] >= 0);
    CHECK(at[TAG_STEP2] > at[TAG_STEP1]);
    CHECK(at[TAG_F] > at[TAG_STEP1]);
    CHECK(at[TAG_S] > at[TAG_F]);
    CHECK(at[TAG_T1] > at[TAG_STEP2] && at[TAG_T1] > at[TAG_F] &&
          at[TAG_T1] > at[TAG_S]);
    CHECK(at[TAG_TT] > at[TAG_T1]);
    CHECK(at[TAG_T2] > at[TAG_TT]);
    CHECK(at[TAG_S2] > at[TAG_STEP2]);
    // The graph each step ran in.
    CHECK(hcurrent[TAG_STEP1] == nullptr && hcurrent[TAG_STEP2] == nullptr);
    CHECK(hcurrent[TAG_F] == F && hcurrent[TAG_S] == S);
    CHECK(hcurrent[TAG_T1] == T1 && hcurrent[TAG_TT] == TT);
    CHECK(hcurrent[TAG_T2] == T2 && hcurrent[TAG_S2] == S2);
  }

  unsigned long long flags = 0;
  RT(cudaGraphExecGetFlags(T1, &flags));
  CHECK(flags == cudaGraphInstantiateFlagDeviceLaunch);
  cudaGraphExec_t all[] = {H, F, S, TT, T1, T2, S2};
  for (cudaGraphExec_t e : all)
    RT(cudaGraphExecDestroy(e));
  RT(cudaGraphDestroy(hg));
  RT(cudaFree(log));
  RT(cudaFree(pos));
  RT(cudaFree(modes));
  RT(cudaFree(errors));
  RT(cudaFree(current));
  RT(cudaFree(execs));
  RT(cudaStreamDestroy(stream));
  return finish();
}
