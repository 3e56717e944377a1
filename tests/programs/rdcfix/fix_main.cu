// fix_main.cu: kernels that call fix_lib.cu's members and functions
// (relocatable device code): on each device, each must run its device
// code of the device's architecture (900 on a 9.x device, 800 on 8.x,
// built for compute_80 and compute_90; -1 would be its host code).
// tests/programs_rdcfix.sh.
// NVCC_OPTIONS: -rdc=true
#include <cstdio>
#include <new>

#include "fix_lib.cuh"

enum { SLOTS = 23 };

// This unit's table of another unit's device function: its own copy per
// architecture too.
__constant__ op_t main_ops[2] = {neg_branch, nullptr};

// Builds a Circle in mem: fix_shape.cu's virtual table, through which
// alone the probe calls its members (not inlined, so the compiler does not
// call them directly), is what links that -lib archive's member.
__device__ __noinline__ Shape *build_circle(void *mem)
{
  return new (mem) Circle();
}

// What runs its device code of the device's architecture.
__global__ void probe(int *out, void *mem)
{
  Ops<int> ops;
  Tally t{1};
  SysProbe sys;
  Shape *shape = make_square(mem);
  Square local;  // this unit's device code builds it
  Shape *mine = &local;
  out[0] = ops.apply(0);
  out[1] = Tally::dev_static();
  out[2] = Tally::hd_static();
  out[3] = t(1) - 2;
  out[4] = (t + 2) - 3;
  out[5] = shape->dev_kind() - 10;
  out[6] = shape->hd_kind() - 20;
  out[7] = sys.dev_mark() - 30;
  out[8] = sys.hd_mark() - 40;
  out[9] = mine->dev_kind() - 10;
  out[10] = mine->hd_kind() - 20;
  Shape *other = build_circle(static_cast<char *>(mem) + sizeof(Square));
  out[16] = other->dev_kind() - 50;
  out[17] = other->hd_kind() - 60;
  Shape *hex = build_hexagon(static_cast<char *>(mem) + sizeof(Square) +
                             sizeof(Circle));
  out[21] = hex->dev_kind() - 70;
  out[22] = hex->hd_kind() - 80;
}

// Calls through the device function pointers of variables' initializers
// (fix_lib.cu's and this unit's): each architecture's variable points at
// that architecture's code (before, the first pass's: 900 on 8.x too).
__global__ void pointers(int *out)
{
  out[0] = chosen_op(0);
  out[1] = op_table[0](0);
  out[2] = -op_table[1](0);
  out[3] = -const_op(0);
  out[4] = -main_ops[0](0);
}

// Calls through what the host read of the variables with its symbol calls
// on the current device (cudaMemcpyFromSymbol, cudaGetSymbolAddress) and
// wrote (cudaMemcpyToSymbol: chosen_op set to const_op's neg_branch): the
// current device's copies, as on a GPU each device's cubin has its own
// (before, the first pass's: 900 on 8.x too).
__global__ void through(op_t op, const op_t *table, int *out)
{
  out[0] = op(0);
  out[1] = -table[1](0);
  out[2] = -chosen_op(0);
}

// 64 bytes of static shared memory of its own, and what fix_shape.cu's
// staged_sum and its callee declare (128 and 256 bytes): nvcc's device link
// counts 448 in the kernel's sharedSizeBytes (before, cuemu counted 64).
__global__ void shared_user(int *out)
{
  __shared__ int own[16];
  int got = staged_sum(out[0]);
  for (unsigned k = threadIdx.x; k < 16; k += blockDim.x)
    own[k] = got + (int)k;
  __syncthreads();
  out[0] = own[(threadIdx.x * 3 + got) % 16];
}

int main()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess)
    return 1;
  int ok = 1;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    int *out = nullptr, host[SLOTS];
    void *mem = nullptr;
    if (cudaSetDevice(d) != cudaSuccess ||
        cudaGetDeviceProperties(&prop, d) != cudaSuccess ||
        cudaMalloc(&out, sizeof host) != cudaSuccess ||
        cudaMalloc(&mem, sizeof(Square) + sizeof(Circle) + sizeof(Hexagon)) !=
            cudaSuccess)
      return 1;
    probe<<<1, 1>>>(out, mem);
    pointers<<<1, 1>>>(out + 11);
    op_t op = nullptr, neg = nullptr, *table = nullptr;
    if (cudaMemcpyFromSymbol(&op, chosen_op, sizeof op) != cudaSuccess ||
        cudaMemcpyFromSymbol(&neg, const_op, sizeof neg) != cudaSuccess ||
        cudaGetSymbolAddress((void **)&table, op_table) != cudaSuccess ||
        cudaMemcpyToSymbol(chosen_op, &neg, sizeof neg) != cudaSuccess)
      return 1;
    through<<<1, 1>>>(op, table, out + 18);
    if (cudaMemcpyToSymbol(chosen_op, &op, sizeof op) != cudaSuccess)
      return 1;
    if (cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      return 1;
    int want = prop.major >= 9 ? 900 : 800;
    printf("device %d (%d.%d):", d, prop.major, prop.minor);
    for (int k = 0; k < SLOTS; ++k) {
      printf(" %d", host[k]);
      ok &= host[k] == want;
    }
    printf("\n");
    cudaFree(out);
    cudaFree(mem);
  }
  cudaFuncAttributes attr;
  if (cudaFuncGetAttributes(&attr, shared_user) != cudaSuccess)
    return 1;
  printf("shared: %zu\n", attr.sharedSizeBytes);
  ok &= attr.sharedSizeBytes == 448;
  Tally t{1};
  SysProbe sys;
  printf("host: %d %d %d\n", Tally::hd_static(), (t + 2) - 3,
         sys.hd_mark() - 40);
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
