/*
 * ptx_indirect_calls.cu: NVIDIA PTX text that calls through addresses,
 * loaded with cuModuleLoadData and launched, as the driver's JIT runs it:
 * nvcc's PTX of ptx_indirect_kernels.cuh (ptx_indirect_kernels.h), whose
 * device function pointers and virtual functions are indirect calls
 * (`call (retval0), %rd9, (param0, param1), prototype_4;`) and whose
 * `__device__` pointers, function tables and vtables have initializers
 * holding addresses (`generic(target)`, `generic(table_data)+8`, function
 * names, the mask operator `0xFF00(generic(table_data)+4)`); the results
 * are device_indirect_calls.cu's, the same kernels built as CUDA C++. A
 * hand-written module whose functions take and return `.reg` parameters
 * (`.func (.reg .b32 r) f(.reg .b32 a)`, older PTX's form), called with
 * registers and immediates, directly and through an address. cuemu's JIT
 * refused all three (CUDA_ERROR_INVALID_PTX); texture references still are.
 * Prints PASS and exits 0 when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cstdio>
#include <string>

#include <cuda.h>

#include "../check.cuh"
#define PTX_INDIRECT_EXPECTED_ONLY
#include "ptx_indirect_kernels.cuh"
#include "ptx_indirect_kernels.h"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

/* Older PTX's .reg parameters: `scale_add` returns a * 3 + b, called
 * directly with a register and an immediate, through a function pointer
 * read from a table of .u64 function addresses with a .calltargets list,
 * and from a function with .reg parameters of its own (`twice_sum`, whose
 * early `ret` under a guard returns too). */
static const char ptx_reg_params[] = R"PTX(
.version 7.0
.target sm_80
.address_size 64

.func (.reg .b32 r) scale_add(.reg .b32 a, .reg .b32 b);
.global .align 8 .u64 reg_table[1] = {scale_add};

.func (.reg .b32 r) scale_add(.reg .b32 a, .reg .b32 b)
{
	mul.lo.s32 r, a, 3;
	add.s32 r, r, b;
	ret;
}

.func (.reg .b64 %rd_out) twice_sum(.reg .b64 %x, .reg .b64 %y)
{
	.reg .pred p;
	setp.eq.s64 p, %x, 0;
	mov.b64 %rd_out, -1;
	@p ret;
	add.s64 %rd_out, %x, %y;
	shl.b64 %rd_out, %rd_out, 1;
	mov.b64 %x, 0;
	ret;
}

.visible .entry reg_calls(.param .u64 out_param)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	Ftargets: .calltargets scale_add;
	ld.param.u64 %rd1, [out_param];
	mov.u32 %r1, %tid.x;
	add.u32 %r1, %r1, 3;
	call (%r2), scale_add, (%r1, 5);
	st.global.u32 [%rd1], %r2;
	ld.global.u64 %rd2, [reg_table];
	call (%r3), %rd2, (%r2, %r1), Ftargets;
	st.global.u32 [%rd1+4], %r3;
	cvt.u64.u32 %rd3, %r1;
	call (%rd4), twice_sum, (%rd3, 1000);
	st.global.u64 [%rd1+8], %rd4;
	st.global.u64 [%rd1+16], %rd3;
	call (%rd5), twice_sum, (0, 1000);
	st.global.u64 [%rd1+24], %rd5;
	ret;
}
)PTX";

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  CUmodule m;
  CU(cuModuleLoadData(&m, ptx_indirect_kernels));
  CUfunction apply, pick, shape, through;
  CU(cuModuleGetFunction(&apply, m, "apply_ops"));
  CU(cuModuleGetFunction(&pick, m, "pick_op"));
  CU(cuModuleGetFunction(&shape, m, "shapes"));
  CU(cuModuleGetFunction(&through, m, "through_pointers"));

  /* The module's pointer variables hold the addresses of its variables. */
  CUdeviceptr target, target_ptr, table, const_ptr;
  size_t size = 0;
  CU(cuModuleGetGlobal(&target, &size, m, "target"));
  CU(cuModuleGetGlobal(&target_ptr, &size, m, "target_ptr"));
  CHECK(size == 8);
  CU(cuModuleGetGlobal(&table, &size, m, "table_data"));
  CU(cuModuleGetGlobal(&const_ptr, &size, m, "const_ptr"));
  unsigned long long held = 0;
  CU(cuMemcpyDtoH(&held, target_ptr, sizeof held));
  CHECK(held == (unsigned long long)target);
  CU(cuMemcpyDtoH(&held, const_ptr, sizeof held));
  CHECK(held == (unsigned long long)table + 12);

  const int n = 96;
  int host_which[n], host_out[2 * n];
  for (int i = 0; i < n; ++i) host_which[i] = (i * 7) % 5;
  CUdeviceptr out, which;
  CU(cuMemAlloc(&out, sizeof host_out));
  CU(cuMemAlloc(&which, sizeof host_which));
  CU(cuMemcpyHtoD(which, host_which, sizeof host_which));

  int a = 100, b = 9, count = n;
  void *apply_args[] = {&out, &which, &a, &b, &count};
  CU(cuLaunchKernel(apply, 3, 1, 1, 32, 1, 1, 0, nullptr, apply_args, nullptr));
  CU(cuMemcpyDtoH(host_out, out, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    CHECK(host_out[i] == expected_op(host_which[i], 100 + i, 9));

  void *pick_args[] = {&out, &which, &count};
  CU(cuLaunchKernel(pick, 3, 1, 1, 32, 1, 1, 0, nullptr, pick_args, nullptr));
  CU(cuMemcpyDtoH(host_out, out, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    CHECK(host_out[i] == (host_which[i] ? i + 3 : i * 3));

  void *shape_args[] = {&out, &count};
  CU(cuLaunchKernel(shape, 3, 1, 1, 32, 1, 1, 0, nullptr, shape_args, nullptr));
  CU(cuMemcpyDtoH(host_out, out, sizeof host_out));
  for (int i = 0; i < n; ++i) {
    CHECK(host_out[2 * i] == expected_area(i));
    CHECK(host_out[2 * i + 1] == expected_sides(i));
  }

  void *through_args[] = {&out};
  CU(cuLaunchKernel(through, 1, 1, 1, 1, 1, 1, 0, nullptr, through_args,
                    nullptr));
  CU(cuMemcpyDtoH(host_out, out, 6 * sizeof(int)));
  const int want[6] = {8, 30, 40, 9, 20, 'k'};
  for (int i = 0; i < 6; ++i) CHECK(host_out[i] == want[i]);
  CU(cuModuleUnload(m));

  /* .reg parameters. */
  CU(cuModuleLoadData(&m, ptx_reg_params));
  CUfunction reg_calls;
  CU(cuModuleGetFunction(&reg_calls, m, "reg_calls"));
  unsigned long long results[4 * 4];
  CUdeviceptr reg_out;
  CU(cuMemAlloc(&reg_out, sizeof results));
  void *reg_args[] = {&reg_out};
  CU(cuLaunchKernel(reg_calls, 1, 1, 1, 1, 1, 1, 0, nullptr, reg_args,
                    nullptr));
  CU(cuMemcpyDtoH(results, reg_out, 4 * sizeof results[0]));
  const unsigned *words = reinterpret_cast<const unsigned *>(results);
  CHECK(words[0] == 14);                     /* scale_add(3, 5) */
  CHECK(words[1] == 45);                     /* scale_add(14, 3), through the table */
  CHECK(results[1] == 2006);                 /* twice_sum(3, 1000) */
  CHECK(results[2] == 3);                    /* the argument register stays the caller's */
  CHECK(results[3] == (unsigned long long)-1); /* twice_sum(0, 1000), its early ret */
  CU(cuModuleUnload(m));

  /* An initializer naming what the module does not declare before it is
   * refused, as ptxas refuses it ("Invalid initial value expression"); so
   * is the mask operator outside a byte array, which ptxas takes but nvcc
   * never writes (cuemu: a byte of an address in a wider element is not
   * known before the module is linked, and a __device__ variable may not
   * be initialised dynamically). */
  static const char undeclared[] = R"PTX(
.version 7.0
.target sm_80
.address_size 64
.global .align 8 .u64 p = generic(later);
.global .align 4 .u32 later = 1;
)PTX";
  CHECK(cuModuleLoadData(&m, undeclared) == CUDA_ERROR_INVALID_PTX);
  static const char wide_mask[] = R"PTX(
.version 7.1
.target sm_80
.address_size 64
.global .align 4 .u32 x = 1;
.global .align 4 .u32 bytes[2] = {0xFF(generic(x)), 0xFF00(generic(x))};
)PTX";
  CHECK(cuModuleLoadData(&m, wide_mask) == CUDA_ERROR_INVALID_PTX);

  /* Texture references, which CUDA 12 removed, are still refused. */
  static const char texref[] = R"PTX(
.version 7.0
.target sm_80
.address_size 64
.global .texref tex;
.visible .entry k()
{
	ret;
}
)PTX";
  CHECK(cuModuleLoadData(&m, texref) == CUDA_ERROR_INVALID_PTX);
  cuMemFree(out);
  cuMemFree(which);
  cuMemFree(reg_out);
  return finish();
}
