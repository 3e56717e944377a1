"""cupyx.scipy.fft as a backend of scipy.fft (CuPy's cupyx/scipy/fft/_fft.py):
`scipy.fft.set_backend(cupyx.scipy.fft)` and `set_global_backend` send calls
whose arrays are CuPy arrays to cupyx.scipy.fft's transforms; NumPy arrays
make the backend decline (NotImplemented), so SciPy's own transforms take
them, as with CuPy. The uarray protocol is three names on the module."""
import numpy


def install(module):
    """Gives the cupyx.scipy.fft delegate `module` the backend protocol."""
    import scipy.fft

    def __ua_convert__(dispatchables, coerce):
        from fake_cupy import asarray, ndarray
        if coerce:
            try:
                values = [asarray(d.value) if d.coercible and
                          d.type is numpy.ndarray else d.value
                          for d in dispatchables]
            except TypeError:
                return NotImplemented
        else:
            values = [d.value for d in dispatchables]
        if not all(d.type is not numpy.ndarray or isinstance(v, ndarray)
                   for v, d in zip(values, dispatchables)):
            return NotImplemented
        return values

    def __ua_function__(method, args, kwargs):
        func = getattr(module, getattr(method, "__name__", ""), None)
        if func is None or not callable(func):
            return NotImplemented
        # The delegate calls scipy.fft's function on host arrays: SciPy's
        # own backend must take that call (also when this module is the
        # global backend), not this one again.
        with scipy.fft.set_backend("scipy", only=True):
            return func(*args, **kwargs)

    module.__ua_domain__ = "numpy.scipy.fft"
    module.__ua_convert__ = __ua_convert__
    module.__ua_function__ = __ua_function__
