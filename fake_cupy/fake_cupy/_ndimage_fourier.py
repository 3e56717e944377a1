"""cupyx.scipy.ndimage's Fourier filters (fourier_gaussian, fourier_uniform,
fourier_ellipsoid, fourier_shift) over SciPy's, with CuPy's output dtype
(cupyx/scipy/ndimage/_fourier.py, _get_output_fourier): without `output=`,
CuPy keeps a complex64 or complex128 input's dtype (and float32 or float64
for the three real filters) and otherwise makes complex128 (fourier_shift)
or float64; SciPy refuses some of those inputs (float16: RuntimeError
'data type not supported'). The input is converted to CuPy's output dtype
first, so SciPy filters it in that precision, as CuPy does."""
import functools

import numpy

_COMPLEX = (numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128))
_REAL = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
NAMES = ("fourier_gaussian", "fourier_uniform", "fourier_ellipsoid",
         "fourier_shift")


def _output_dtype(dtype, complex_only):
    types = _COMPLEX if complex_only else _COMPLEX + _REAL
    return dtype if dtype in types else types[-1]


def filtered(name, func):
    """`func` (the delegate of SciPy's filter `name`) taking the inputs
    CuPy takes, in CuPy's output dtype."""
    complex_only = name == "fourier_shift"

    @functools.wraps(func)
    def call(input, *args, **kwargs):
        dtype = getattr(input, "dtype", None)
        output_given = kwargs.get("output") is not None or len(args) >= 4
        if dtype is not None and not output_given:
            target = _output_dtype(numpy.dtype(dtype), complex_only)
            if target != dtype:
                input = input.astype(target)
        return func(input, *args, **kwargs)
    return call
