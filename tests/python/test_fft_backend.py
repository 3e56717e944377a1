"""cupyx.scipy.fft as a backend of scipy.fft, as CuPy documents it
(`scipy.fft.set_backend(cupyx.scipy.fft)`, used by a public EEG script):
CuPy arrays go to cupyx.scipy.fft's transforms and come back as CuPy arrays,
NumPy arrays fall through to SciPy's own. The fake's module had no
__ua_domain__, so set_backend raised AttributeError."""
import numpy
import pytest

import fake_cupy

scipy_fft = pytest.importorskip("scipy.fft")


@pytest.fixture
def cupyx_fft(cp):
    fake_cupy.install()
    try:
        import cupyx.scipy.fft
        yield cupyx.scipy.fft
    finally:
        fake_cupy.uninstall()


def test_set_backend_sends_cupy_arrays_to_cupyx(cp, cupyx_fft):
    host = numpy.arange(16, dtype=numpy.complex64).reshape(2, 8)
    with scipy_fft.set_backend(cupyx_fft):
        out = scipy_fft.fft(cp.asarray(host))
        assert isinstance(out, cp.ndarray) and out.dtype == numpy.complex64
        numpy.testing.assert_allclose(out.get(), numpy.fft.fft(host), rtol=1e-5)
        two = scipy_fft.ifft2(cp.asarray(host), norm="ortho")
        numpy.testing.assert_allclose(two.get(),
                                      numpy.fft.ifft2(host, norm="ortho"),
                                      rtol=1e-5, atol=1e-6)
        # NumPy arrays are SciPy's business, as with CuPy's backend.
        back = scipy_fft.fft(host)
        assert type(back) is numpy.ndarray


def test_global_backend_and_plan_keyword(cp, cupyx_fft):
    dev = cp.asarray(numpy.ones((4, 8), numpy.complex64))
    plan = cupyx_fft.get_fft_plan(dev, axes=(-1,))
    scipy_fft.set_global_backend(cupyx_fft)
    try:
        out = scipy_fft.fft(dev, plan=plan)
        assert isinstance(out, cp.ndarray)
        with pytest.raises(ValueError, match="Batch size does not match"):
            scipy_fft.fft(dev[:2], plan=plan)
    finally:
        scipy_fft.set_global_backend("scipy")
    assert cupyx_fft.__ua_domain__ == "numpy.scipy.fft"
