"""test_vecops.py: the setuptools-built extension against NumPy."""
import sys
import threading

import numpy as np

import vecops

failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


name, sms = vecops.device()
print("device:", name, sms, "SMs")
rng = np.random.default_rng(7)
a = rng.standard_normal(300_001).astype(np.float32)
b = rng.standard_normal(300_001).astype(np.float32)
expect(np.array_equal(vecops.add(a, b), a + b), "add")
x = rng.standard_normal(123_457)
y = rng.standard_normal(123_457)
expect(abs(vecops.dot(x, y) - np.dot(x, y)) < 1e-8 * x.size, "dot")
v = rng.integers(-50, 50, 1000, dtype=np.int32)
expect(np.array_equal(vecops.cumsum(v), np.cumsum(v)), "scan")
try:
    vecops._vecops.add(a.astype(np.float64), b, np.empty_like(a))
    expect(False, "format check")
except TypeError as e:
    expect("expected format 'f'" in str(e), "format check")

results = []


def work(seed):
    r = np.random.default_rng(seed)
    for _ in range(4):
        p = r.standard_normal(20_000)
        q = r.standard_normal(20_000)
        results.append(abs(vecops.dot(p, q) - np.dot(p, q)) < 1e-8 * p.size)


ts = [threading.Thread(target=work, args=(s,)) for s in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
expect(len(results) == 12 and all(results), "dot from 3 threads")
print("PASS" if not failures else "FAIL: %d" % len(failures))
sys.exit(1 if failures else 0)
