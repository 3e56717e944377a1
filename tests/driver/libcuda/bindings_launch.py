"""bindings_launch.py MODULE: cuda-python's cuda.bindings.driver, which
loads libcuda.so.1 by name, run on cuemu's (tests/libcuda.sh runs it with
LD_LIBRARY_PATH naming cuemu-toolkit/compat, where cuda.bindings is
installed): the module of `-fatbin` loaded from memory, scale_add launched
with cuLaunchKernel, the result checked. Prints PASS."""
import ctypes
import sys

from cuda.bindings import driver


def call(result):
    """The values of a cuda.bindings call, after checking its CUresult."""
    if not isinstance(result, tuple):
        result = (result,)
    if result[0] != driver.CUresult.CUDA_SUCCESS:
        raise SystemExit("a driver call failed: %r" % (result[0],))
    return result[1] if len(result) == 2 else result[1:]


def main():
    call(driver.cuInit(0))
    dev = call(driver.cuDeviceGet(0))
    ctx = call(driver.cuCtxCreate(None, 0, dev))
    with open(sys.argv[1], "rb") as f:
        module = call(driver.cuModuleLoadData(f.read()))
    kernel = call(driver.cuModuleGetFunction(module, b"scale_add"))
    n = 256
    x = (ctypes.c_float * n)(*range(n))
    y = (ctypes.c_float * n)(*([2.0] * n))
    dx = call(driver.cuMemAlloc(ctypes.sizeof(x)))
    dy = call(driver.cuMemAlloc(ctypes.sizeof(y)))
    call(driver.cuMemcpyHtoD(dx, ctypes.addressof(x), ctypes.sizeof(x)))
    call(driver.cuMemcpyHtoD(dy, ctypes.addressof(y), ctypes.sizeof(y)))
    values = [ctypes.c_uint64(int(dy)), ctypes.c_uint64(int(dx)),
              ctypes.c_float(0.5), ctypes.c_int(n)]
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(v) for v in values])
    call(driver.cuLaunchKernel(kernel, 2, 1, 1, 128, 1, 1, 0, 0,
                               ctypes.addressof(params), 0))
    call(driver.cuCtxSynchronize())
    out = (ctypes.c_float * n)()
    call(driver.cuMemcpyDtoH(ctypes.addressof(out), dy, ctypes.sizeof(out)))
    wrong = [i for i in range(n) if out[i] != 0.5 * i + 2.0]
    for p in (dx, dy):
        call(driver.cuMemFree(p))
    call(driver.cuModuleUnload(module))
    call(driver.cuCtxDestroy(ctx))
    print("y[%d] = %g" % (wrong[0], out[wrong[0]]) if wrong else "PASS")


main()
