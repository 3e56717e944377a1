"""cupyx.scipy.signal of the fake CuPy: the functions whose arguments CuPy 13
takes differently from SciPy; the others are delegates of SciPy's (see
_cupyx.py).

CuPy's spectral functions begin with cupy.asarray on their signals
(cupyx/scipy/signal/_spectral.py, _spectral_impl.py): lombscargle (x, y and
freqs as float64), periodogram, welch, csd, coherence, spectrogram, stft
(x, and y) and istft (Zxx), and an array-like window is copied too; so do
detrend (data) and deconvolve (signal and divisor, through atleast_1d,
cupyx/scipy/signal/_signaltools.py). A NumPy
signal (the result of a host-side filter, say) or a list is therefore
taken, and the results are cupy arrays; a delegate refused the NumPy array.

CuPy's wiener converts each window size with int()
(_util._fix_sequence_arg), so `wiener(image, radius * 2 + 1)` with a float
radius works there, where SciPy's np.ones(5.0) raises TypeError; the image
is computed in float64 (complex128 for complex input), as SciPy's is.

CuPy's lfilter, lfiltic and lfilter_zi (their arguments and CuPy's layout
of the filter state) are in _signal_lfilter.py."""
import functools
import inspect

import numpy
import scipy.signal

from fake_cupy import _functions, _signal_lfilter, _signal_wavelets
from fake_cupy._ndarray import ndarray

# The array arguments each function copies to the device.
_SPECTRAL = {
    "lombscargle": ("x", "y", "freqs"), "periodogram": ("x",),
    "welch": ("x",), "csd": ("x", "y"), "coherence": ("x", "y"),
    "spectrogram": ("x",), "stft": ("x",), "istft": ("Zxx",),
    "detrend": ("data",), "deconvolve": ("signal", "divisor"),
}


def _to_device(value, dtype=None):
    if isinstance(value, ndarray):
        return value if dtype is None else value.astype(dtype, copy=False)
    return _functions.asarray(numpy.asarray(value), dtype=dtype)


def _converting(name, arrays):
    func = getattr(scipy.signal, name)
    signature = inspect.signature(func)
    call = _functions.delegate(func)
    dtype = numpy.float64 if name == "lombscargle" else None

    @functools.wraps(func)
    def converted(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        for arg in arrays:
            if arg in bound.arguments:
                bound.arguments[arg] = _to_device(bound.arguments[arg], dtype)
        window = bound.arguments.get("window")
        if window is not None and not isinstance(window, (str, tuple)):
            bound.arguments["window"] = _to_device(window)
        return call(*bound.args, **bound.kwargs)
    return converted


def _fix_sequence_arg(arg, ndim, name, conv):
    """CuPy's ndimage _util._fix_sequence_arg: a scalar repeated ndim
    times, or a sequence of ndim items, each converted by conv."""
    if isinstance(arg, str):
        return [conv(arg)] * ndim
    try:
        items = iter(arg)
    except TypeError:
        return [conv(arg)] * ndim
    values = [conv(x) for x in items]
    if len(values) != ndim:
        raise RuntimeError(f"{name} must have length equal to input rank")
    return values


_scipy_wiener = _functions.delegate(scipy.signal.wiener)


@functools.wraps(scipy.signal.wiener)
def wiener(im, mysize=None, noise=None):
    if mysize is None:
        mysize = 3
    mysize = _fix_sequence_arg(mysize, im.ndim, "mysize", int)
    im = im.astype(numpy.complex128 if im.dtype.kind == "c" else numpy.float64,
                   copy=False)
    return _scipy_wiener(im, mysize, noise)


FUNCTIONS = {name: _converting(name, arrays)
             for name, arrays in _SPECTRAL.items()}
FUNCTIONS.update(wiener=wiener)
FUNCTIONS.update(_signal_lfilter.FUNCTIONS)
# CuPy 13's wavelets, which SciPy 1.15 removed.
FUNCTIONS.update(_signal_wavelets.FUNCTIONS)
