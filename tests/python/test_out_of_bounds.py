"""A kernel that writes outside its arrays: the fake's device memory lies in
mappings of its own between read-only guard regions, so such a write is a
kernel fault (CUDA_ERROR_ILLEGAL_ADDRESS), never a write into the
interpreter's heap, while a read a little past an array gives zeros, as a
GPU reads the mapped memory around an allocation. Each case runs in a
subprocess, since a corrupted heap would end the interpreter (CuPy's own
kmeans example writes 8 KiB past a 32-byte array; its sgemm example reads
past the edge of its matrices)."""
import subprocess
import sys

import pytest

PROGRAM = r"""
import sys
import numpy
import fake_cupy as cupy
kernel = cupy.RawKernel(r'''
extern "C" __global__ void wild(double *c, long long stride, int read) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (read) c[0] += c[i * stride];
  else atomicAdd(&c[i * stride], 1.0);
}''', "wild")
c = cupy.zeros(4, dtype=numpy.float64)
keep = cupy.ones(64, dtype=numpy.float64)
try:
    kernel((4,), (256,), (c, int(sys.argv[1]), int(sys.argv[2])))
    cupy.cuda.Device().synchronize()
    print("no error")
except cupy.cuda.driver.CUDADriverError as e:
    print("raised", str(e).split(":")[0])
junk = [numpy.ones(1000) for _ in range(2000)]
assert (keep.get() == 1).all()
print("alive")
"""


def run(stride, read):
    out = subprocess.run([sys.executable, "-c", PROGRAM, str(stride), str(read)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


@pytest.mark.parametrize("stride", [1, 8, -1])
def test_a_wild_write_is_a_kernel_fault(cp, stride):
    assert run(stride, 0) == ["raised", "CUDA_ERROR_ILLEGAL_ADDRESS", "alive"]


def test_a_read_near_an_array_gives_zeros(cp):
    # Up to 64 KiB past the 32-byte array: no fault, nothing but zeros.
    assert run(8, 1) == ["no", "error", "alive"]


def test_the_slack_of_a_block_stays_silent_as_on_a_gpu(cp):
    # An allocation is rounded up to 512 bytes, as CuPy's pool rounds it:
    # an access just past the array but inside its block is no fault.
    k = cp.RawKernel(r'''
extern "C" __global__ void past(float *x) { x[threadIdx.x + 4] = 1.0f; }''', "past")
    x = cp.zeros(4, dtype="float32")
    k((1,), (8,), (x,))
    cp.cuda.Device().synchronize()
    assert (x.get() == 0).all()


MANY = r"""
import numpy
import fake_cupy as cupy
keep = [cupy.zeros(1 + (i % 7) * 100, dtype=numpy.float32) for i in range(30000)]
keep[-1][...] = 3
assert float(keep[-1].sum()) == 3 * keep[-1].size
k = cupy.RawKernel(r'''
extern "C" __global__ void inc(float *x) { x[threadIdx.x] += 1; }''', "inc")
k((1,), (1,), (keep[0],))
cupy.cuda.Device().synchronize()
assert float(keep[0][0]) == 1
print("ok", len(keep))
"""


def test_many_live_arrays_stay_within_the_mapping_limit(cp):
    # One mapping per allocation would meet the kernel's limit on mappings
    # (vm.max_map_count, 65530 by default) near 21,800 live arrays; beyond
    # a budget, blocks come from shared guarded slabs instead.
    out = subprocess.run([sys.executable, "-c", MANY], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.split() == ["ok", "30000"], \
        out.stdout + out.stderr[-2000:]


FORK = r"""
import os
import numpy
import fake_cupy as cupy
a = cupy.zeros(1000, dtype=numpy.float64)
pid = os.fork()
if pid == 0:
    a.fill(5)
    os._exit(0 if float(a[0]) == 5 else 1)
_, status = os.waitpid(pid, 0)
print(os.WEXITSTATUS(status), float(a[0]))
"""


def test_a_forked_child_writes_its_own_copy(cp):
    # Device memory is private to the process, as the interpreter's heap
    # is: a forked child's writes do not reach the parent's arrays.
    out = subprocess.run([sys.executable, "-c", FORK], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["0", "0.0"], \
        out.stdout + out.stderr[-2000:]
