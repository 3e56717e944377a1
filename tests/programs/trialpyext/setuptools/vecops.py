"""vecops: NumPy front end of the _vecops extension."""
import numpy as np

import _vecops
from _vecops import CudaError  # noqa: F401


def add(a, b):
    a = np.ascontiguousarray(a, np.float32)
    b = np.ascontiguousarray(b, np.float32)
    out = np.empty_like(a)
    _vecops.add(a, b, out)
    return out


def dot(a, b):
    return _vecops.dot(np.ascontiguousarray(a, np.float64), np.ascontiguousarray(b, np.float64))


def cumsum(x):
    x = np.ascontiguousarray(x, np.int32)
    if x.size > 1024:
        raise ValueError("at most 1024 elements")
    out = np.empty_like(x)
    _vecops.scan(x, out)
    return out


device = _vecops.device
