"""rms_norm.py: a small CuPy program with a RawKernel (rms_norm.cu).

On a machine with a GPU it runs with the real CuPy (python rms_norm.py); on
one without, with the fake CuPy of cuemu (python -m fake_cupy rms_norm.py),
unchanged. test_rms_norm.py is its parity test.
"""
import os

import cupy
import numpy

BLOCK = 128
SOURCE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "rms_norm.cu")
with open(SOURCE_PATH, encoding="utf-8") as f:
    SOURCE = f.read()

_kernel = cupy.RawKernel(SOURCE, "rms_norm")


def rms_norm(x, eps=1e-6):
    """Normalises each row of the 2-D float64 CuPy array x by its RMS."""
    rows, cols = x.shape
    x = cupy.ascontiguousarray(x, dtype=cupy.float64)
    out = cupy.empty_like(x)
    _kernel((rows,), (BLOCK,), (x, out, numpy.int32(cols), numpy.float64(eps)),
            shared_mem=BLOCK * 8)
    return out


def rms_norm_host(x, out, cols, eps):
    """The host implementation, with the kernel's parameters (out is written)."""
    rms = numpy.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    out[...] = x / rms


def main():
    host = numpy.random.default_rng(0).standard_normal((64, 300))
    y = rms_norm(cupy.asarray(host)).get()
    expected = numpy.empty_like(host)
    rms_norm_host(host, expected, host.shape[1], 1e-6)
    error = numpy.abs(y - expected).max()
    print(f"rms_norm: 64 rows of 300, max abs difference from NumPy {error:.3g}")
    return 0 if error < 1e-12 else 1


if __name__ == "__main__":
    raise SystemExit(main())
