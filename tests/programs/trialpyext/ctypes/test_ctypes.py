"""test_ctypes.py: two nvcc-built shared libraries driven through ctypes."""
import _ctypes
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import threading

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cudalib  # noqa: E402

failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


rng = np.random.default_rng(1234)

# A child forked before the parent touches CUDA loads and uses the libraries.
pid = os.fork()
if pid == 0:
    try:
        k = cudalib.Kernels(cudalib.load_a(), cudalib.load_b())
        x = np.arange(1000, dtype=np.float64)
        ok = k.total(x) == x.sum()
        os._exit(0 if ok else 3)
    except BaseException as e:  # noqa: BLE001
        print("child:", e)
        os._exit(4)
_, status = os.waitpid(pid, 0)
expect(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"forked child (status {status})")

a = cudalib.load_a()
b = cudalib.load_b()
k = cudalib.Kernels(a, b)
expect(a.ka_version() == 3 and b.kb_version() == 7, "versions")
print("device:", k.device_name())

n = 100_003
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
ref = 2.5 * x + y
k.saxpy(2.5, x, y)
expect(np.allclose(y, ref, rtol=1e-6, atol=1e-6), "saxpy through ndpointer")

xd = rng.standard_normal(5000)
yd = np.ones(5000)
k.daxpy(-0.5, xd, yd)
expect(np.allclose(yd, 1 - 0.5 * xd), "daxpy through data_as")

coeffs = np.array([1.0, -2.0, 0.5, 0.25], np.float32)
xp = np.linspace(-2, 2, 777, dtype=np.float32)
expect(np.allclose(k.poly(coeffs, xp), np.polyval(coeffs[::-1], xp), rtol=1e-5, atol=1e-5),
       "__constant__ polynomial")

xs = rng.standard_normal(65_536)
expect(abs(k.total(xs) - xs.sum()) < 1e-9 * n, "double sum")
xi = rng.integers(-1000, 1000, 99_999, dtype=np.int32)
expect(k.total(xi) == int(xi.sum()), "int sum")
data = rng.integers(0, 256, 200_000, dtype=np.uint8)
expect(np.array_equal(k.histogram(data), np.bincount(data, minlength=256)), "histogram")

# Each library runs its own kernels, also those of one name and type.
expect(k.which() == (1, 2), f"same-named kernels {k.which()}")
fa, fb = k.fill(300, 5, 6)
expect(np.all(fa == 5) and np.all(fb == 6), "one kernel template instance in both")

# Each library keeps its own __device__ int g_calls.
expect(k.calls() == (2, 200), f"separate __device__ variables {k.calls()}")

# A wrong non-contiguous array is refused by ndpointer before any CUDA call.
try:
    k.saxpy(1.0, x[::2], y[::2])
    expect(False, "ndpointer refuses a strided array")
except ctypes.ArgumentError:
    expect(True, "ndpointer refuses a strided array")

# A bad launch becomes a Python exception with CUDA's message.
try:
    k.check(a.ka_bad_launch())
    expect(False, "bad launch raises")
except cudalib.CudaError as e:
    expect(e.name == "cudaErrorInvalidConfiguration" and "invalid configuration" in str(e),
           f"bad launch raises: {e}")
expect(a.ka_calls(ctypes.byref(ctypes.c_int())) == 0, "error is not sticky")

# Threads: ctypes releases the GIL, so the calls overlap.
errors = []


def worker(seed):
    r = np.random.default_rng(seed)
    for _ in range(5):
        xx = r.standard_normal(10_000).astype(np.float32)
        yy = r.standard_normal(10_000).astype(np.float32)
        want = 3 * xx + yy
        k.saxpy(3.0, xx, yy)
        if not np.allclose(want, yy, rtol=1e-6, atol=1e-6):
            errors.append(seed)
        vals = r.integers(0, 100, 5000, dtype=np.int32)
        if k.total(vals) != vals.sum():
            errors.append(-seed)


threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
expect(not errors, f"4 threads {errors}")
expect(k.calls() == (2 + 20, 200 + 2000), f"calls after threads {k.calls()}")

# Unload libkern_a and load a fresh copy: a new module with a new g_calls.
with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "libkern_a_copy.so")
    shutil.copy(os.path.join(cudalib.LIBDIR, "libkern_a.so"), copy)
    handle = a._handle
    del k, a
    _ctypes.dlclose(handle)
    for round_ in range(2):
        a2 = cudalib.load_a(copy)
        k2 = cudalib.Kernels(a2, b)
        y2 = np.zeros(1000, np.float32)
        k2.saxpy(1.0, np.ones(1000, np.float32), y2)
        expect(np.all(y2 == 1.0) and k2.calls()[0] == 1 and k2.which() == (1, 2),
               f"reloaded library, round {round_}: calls {k2.calls()}")
        h = a2._handle
        del k2, a2
        _ctypes.dlclose(h)
    a3 = cudalib.load_a()
    k3 = cudalib.Kernels(a3, b)
    y3 = np.zeros(10, np.float32)
    k3.saxpy(2.0, np.ones(10, np.float32), y3)
    expect(np.all(y3 == 2.0) and k3.calls()[0] == 1, f"reloaded original: calls {k3.calls()}")

# A kernel fault in another interpreter: an exception there, this one goes on.
code = ("import sys; sys.path.insert(0, %r); import cudalib;"
        "k = cudalib.Kernels(cudalib.load_a(), cudalib.load_b())\n"
        "try:\n    k.check(k.b.kb_fault())\nexcept cudalib.CudaError as e:\n"
        "    print('caught', e.name); sys.exit(0)\nsys.exit(5)") % os.path.dirname(
            os.path.abspath(__file__))
r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
expect(r.returncode == 0 and "caught cudaErrorIllegalAddress" in r.stdout,
       f"fault as an exception: rc {r.returncode} {r.stdout.strip()!r}")

print("PASS" if not failures else "FAIL: %d" % len(failures))
sys.exit(1 if failures else 0)
