"""test_pyops.py: the pybind11 modules against NumPy."""
import os
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.environ.get("PYOPS_DIR", "build"))
import pyops  # noqa: E402

try:
    import pyfused  # noqa: E402
except ImportError:
    if os.environ.get("PYOPS_FUSED", "1") != "0":
        raise
    pyfused = None

failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


rng = np.random.default_rng(99)
expect(pyops.device_count() >= 1, "device count")
for dt in (np.float32, np.float64, np.int32, np.int64):
    a = (rng.standard_normal((37, 91)) * 100).astype(dt)
    b = (rng.standard_normal((37, 91)) * 100).astype(dt)
    s = pyops.binary(a, b)
    mx = pyops.binary(a, b, pyops.BinaryOp.maximum)
    expect(s.dtype == dt and s.shape == a.shape and np.array_equal(s, a + b)
           and np.array_equal(mx, np.maximum(a, b)), f"binary {np.dtype(dt).name}")
try:
    pyops.binary(np.zeros(3, np.float16), np.zeros(3, np.float16))
    expect(False, "float16 refused")
except TypeError as e:
    expect("unsupported dtype float16" in str(e), "float16 refused")

for dt in (np.float32, np.float64):
    x = rng.standard_normal((64, 300)).astype(dt)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    got = pyops.softmax(x)
    expect(got.dtype == dt and np.allclose(got, want, rtol=1e-4, atol=1e-6),
           f"softmax {np.dtype(dt).name}")

if pyfused is not None:
    v = np.arange(1000, dtype=np.float32)
    pyfused.scale_shift(v, np.float32(2), np.float32(1))
    expect(np.array_equal(v, 2 * np.arange(1000, dtype=np.float32) + 1), "fused float32")
    w = np.arange(10, dtype=np.float64)
    pyfused.scale_shift(w, 0.5, -1.0)
    expect(np.array_equal(w, 0.5 * np.arange(10) - 1), "fused float64")

# The GIL is released around the synchronize: another Python thread runs meanwhile.
ticks = [0]
stop = threading.Event()


def ticker():
    while not stop.is_set():
        ticks[0] += 1
        time.sleep(0.001)


t = threading.Thread(target=ticker)
t.start()
pyops.spin_async(200.0)
before = ticks[0]
pyops.synchronize()
during = ticks[0] - before
stop.set()
t.join()
expect(during > 5, f"GIL released in synchronize ({during} ticks)")

# A bad launch is an exception, and CUDA still works after it.
try:
    pyops.fault(0)
    expect(False, "bad launch raises")
except pyops.CudaError as e:
    expect("cudaErrorInvalidConfiguration" in str(e), f"bad launch raises: {e}")
expect(np.array_equal(pyops.binary(np.ones(4), np.ones(4)), np.full(4, 2.0)), "works after")

# A kernel fault is an exception; the interpreter survives, the context is lost.
try:
    pyops.fault(1)
    expect(False, "fault raises")
except pyops.CudaError as e:
    expect("cudaErrorIllegalAddress" in str(e), f"fault raises: {e}")
try:
    pyops.binary(np.ones(4), np.ones(4))
    expect(False, "sticky error")
except pyops.CudaError as e:
    expect("cudaErrorIllegalAddress" in str(e), f"sticky error: {e}")
print("PASS" if not failures else "FAIL: %d" % len(failures))
sys.exit(1 if failures else 0)
