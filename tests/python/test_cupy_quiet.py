"""What CuPy leaves unsaid, the fake leaves unsaid too (issue 13): device
arithmetic emits no NumPy floating-point RuntimeWarning (a suite run with
`-W error` passes on CuPy), and a successful kernel compile prints nothing
(CuPy shows NVRTC's log only on failure or through log_stream=)."""
import io
import warnings

import numpy
import pytest


def test_device_arithmetic_emits_no_floating_point_warnings(cp):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zero = cp.zeros(4, cp.float32)
        big = cp.full(4, 3e38, cp.float32)
        ints = cp.arange(4)
        assert bool(cp.isnan(zero / zero).all())             # operator
        assert bool(cp.isinf(cp.log(zero)).all())            # ufunc
        assert bool(cp.isnan(cp.sqrt(zero - 1)).all())
        assert bool(cp.isinf(big * 10).all())                 # overflow
        assert bool(cp.isinf(cp.multiply(big, big)).all())
        assert (ints // 0).get().tolist() == [0, 0, 0, 0]     # integer / 0
        assert (ints % 0).get().tolist() == [0, 0, 0, 0]
        q = zero.copy()
        q /= zero                                             # in place
        total = cp.nansum(q)                                  # reduction
        assert bool(cp.isnan(q / total).all())
        assert bool(cp.isnan((q / total).sum()))
        assert bool(cp.isnan(cp.true_divide(zero, zero, out=q)).all())
        nan_ints = (zero / zero).astype(cp.int32)              # casts
        assert nan_ints.shape == (4,)
        target = cp.zeros(4, cp.int32)
        target[...] = zero / zero
        assert bool(cp.isnan(cp.divide.outer(zero, zero)).all())
        assert float(cp.linalg.norm(zero / zero)) != 0.0


def test_host_numpy_still_warns(cp):
    before = numpy.geterr()
    (cp.zeros(2) / cp.zeros(2)).get()
    assert numpy.geterr() == before
    with pytest.warns(RuntimeWarning):
        numpy.zeros(2) / numpy.zeros(2)
