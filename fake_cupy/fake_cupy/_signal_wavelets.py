"""CuPy 13's wavelets of cupyx.scipy.signal, which SciPy 1.15 removed:
ricker, morlet, morlet2, qmf and cwt (cupyx/scipy/signal/_wavelets.py).

CuPy computes them with element-wise kernels in float64 (ricker) or
complex128 (morlet, morlet2); qmf's kernel takes a cupy array and keeps its
dtype. CuPy's cwt differs from SciPy's old one: it takes no dtype or
wavelet keywords, and calls the wavelet with int(width) for a length of
min(10 * int(width), len(data)), its output complex128 where wavelet(1, 1)
is complex, else float64."""
import numpy
import scipy.signal

from fake_cupy._functions import delegate
from fake_cupy._ndarray import ndarray


def _device(values):
    import fake_cupy
    return fake_cupy.asarray(values)


def ricker(points, a):
    """The Ricker ("Mexican hat") wavelet of `points` values, width `a`."""
    a = float(a)
    vec = numpy.arange(int(points)) - (int(points) - 1.0) * 0.5
    xsq, wsq = vec * vec, a * a
    amplitude = 2.0 / (numpy.sqrt(3 * a) * numpy.pi ** 0.25)
    return _device(amplitude * (1 - xsq / wsq) * numpy.exp(-xsq / (2.0 * wsq)))


def morlet(M, w=5.0, s=1.0, complete=True):
    """The complex Morlet wavelet over [-2 pi s, 2 pi s] in M points."""
    x = numpy.linspace(-s * 2.0 * numpy.pi, s * 2.0 * numpy.pi, M)
    out = numpy.exp(1j * w * x)
    if complete:
        out -= numpy.exp(-0.5 * w * w)
    return _device(out * numpy.exp(-0.5 * x * x) * numpy.pi ** -0.25)


def morlet2(M, s, w=5):
    """The complex Morlet wavelet of M points and width s, for cwt."""
    x = (numpy.arange(int(M)) - (int(M) - 1.0) * 0.5) / s
    out = numpy.sqrt(1 / s) * numpy.exp(1j * w * x) * numpy.exp(-0.5 * x * x)
    return _device(out * numpy.pi ** -0.25)


def qmf(hk):
    """The quadrature mirror filter of the cupy array `hk`: hk reversed,
    its odd values negated."""
    if not isinstance(hk, ndarray):
        raise TypeError(f"Unsupported type {type(hk)}")
    host = hk.get()[::-1].copy()
    host[1::2] *= -1
    return _device(host)


_convolve = delegate(scipy.signal.convolve)


def cwt(data, wavelet, widths):
    """The continuous wavelet transform of `data`, one row per width."""
    import fake_cupy
    complex_wavelet = fake_cupy.asarray(wavelet(1, 1)).dtype.char in "FDG"
    output = fake_cupy.empty([len(widths), len(data)],
                             dtype=numpy.complex128 if complex_wavelet else numpy.float64)
    for ind, width in enumerate(widths):
        n = min(10 * int(width), len(data))
        wavelet_data = fake_cupy.conj(wavelet(n, int(width)))[::-1]
        output[ind, :] = _convolve(data, wavelet_data, mode="same")
    return output


FUNCTIONS = {"ricker": ricker, "morlet": morlet, "morlet2": morlet2,
             "qmf": qmf, "cwt": cwt}
