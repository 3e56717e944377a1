/*
 * cuemu_builtins.c: the storage of CUDA's built-in variables.
 *
 * They are initial-exec thread-local variables, so that a kernel in a
 * dlopen()ed module reaches them with one instruction, and real variables,
 * so that gdb can print threadIdx. The scheduler writes them on every
 * switch; libcuemu keeps its thread-local footprint small so that it can be
 * dlopen()ed (by Python, for example) into glibc's static TLS reserve.
 */
#include <cuemu/cuemu_device.h>

__thread cuemu_uint3 threadIdx CUEMU_TLS_IE;
__thread cuemu_uint3 blockIdx CUEMU_TLS_IE;
__thread cuemu_uint3 blockDim CUEMU_TLS_IE;
__thread cuemu_uint3 gridDim CUEMU_TLS_IE;
const int warpSize = 32;

__thread void *cuemu_dynamic_shared CUEMU_TLS_IE;
__thread int cuemu_thread_detached CUEMU_TLS_IE;
__thread unsigned long long cuemu_ptx_carry CUEMU_TLS_IE;
