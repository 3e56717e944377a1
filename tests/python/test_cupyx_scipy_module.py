"""cupyx.scipy.get_array_module, CuPy's way to write SciPy/CuPy generic code
(`xsp = cupyx.scipy.get_array_module(x); xsp.ndimage.gaussian_filter(x, 2)`):
cupyx.scipy when an argument is a CuPy array, else scipy. The fake's
cupyx.scipy had no such function (AttributeError)."""
import numpy
import pytest

import fake_cupy

scipy = pytest.importorskip("scipy")


def test_get_array_module_picks_cupyx_scipy_for_cupy_arrays(cp):
    fake_cupy.install()
    try:
        import cupyx.scipy
        import cupyx.scipy.ndimage
        x = cp.arange(12.0).reshape(3, 4)
        xsp = cupyx.scipy.get_array_module(x)
        assert xsp is cupyx.scipy
        out = xsp.ndimage.uniform_filter(x, 3)
        assert isinstance(out, cp.ndarray)
        assert cupyx.scipy.get_array_module(numpy.zeros(2), 1.0) is scipy
        assert cupyx.scipy.get_array_module() is scipy
        assert cupyx.scipy.get_array_module(numpy.zeros(2), x) is cupyx.scipy
    finally:
        fake_cupy.uninstall()
