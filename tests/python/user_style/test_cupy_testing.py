"""cupy.testing as CuPy's own test suites use it (written for the real
CuPy; tests/python.sh runs it with CUEMU_FAKE_CUPY=1)."""
import numpy
import pytest

import cupy
from cupy import testing


@testing.numpy_cupy_allclose()
def test_allclose_decorator(xp):
    a = testing.shaped_arange((2, 3), xp, numpy.float32)
    return xp.sin(a) * 2


@testing.numpy_cupy_array_equal()
def test_array_equal_decorator(xp):
    return xp.arange(6).reshape(2, 3).T


@testing.numpy_cupy_equal()
def test_equal_decorator(xp):
    return xp.arange(6).reshape(2, 3).shape


@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_allclose(rtol={numpy.float32: 1e-6, "default": 1e-12})
def test_for_all_dtypes(xp, dtype):
    return testing.shaped_arange((4,), xp, dtype) * 2


seen = []


@testing.for_float_dtypes()
def test_for_float_dtypes_calls_each(dtype):
    seen.append(numpy.dtype(dtype))
    assert numpy.dtype(dtype).kind == "f"


def test_for_float_dtypes_covered_three():
    assert sorted(map(str, seen)) == ["float16", "float32", "float64"]


@testing.for_dtypes([numpy.int32, numpy.float64])
@testing.for_orders(["C", "F"])
@testing.numpy_cupy_array_equal()
def test_for_dtypes_and_orders(xp, dtype, order):
    return xp.asarray(testing.shaped_random((3, 2), xp, dtype, seed=1),
                      order=order)


@testing.numpy_cupy_allclose(accept_error=ValueError)
def test_accept_error(xp):
    return xp.ones(3) + xp.ones(4)


def test_decorator_notices_differences():
    @testing.numpy_cupy_array_equal()
    def differs(xp):
        return xp.arange(3) + (1 if xp is cupy else 0)

    with pytest.raises(AssertionError):
        differs()

    @testing.numpy_cupy_allclose()
    def only_cupy_raises(xp):
        if xp is cupy:
            raise RuntimeError("cupy only")
        return xp.ones(1)

    with pytest.raises(AssertionError):
        only_cupy_raises()


@testing.parameterize(*testing.product({"shape": [(2,), (2, 3)],
                                        "dtype": [numpy.float32, numpy.int64]}))
class TestParameterized:

    @testing.numpy_cupy_array_equal()
    def test_zeros(self, xp):
        return xp.zeros(self.shape, dtype=self.dtype)


def test_shaped_helpers():
    a = testing.shaped_arange((2, 2), cupy, numpy.int32)
    assert a.get().tolist() == [[1, 2], [3, 4]]
    r = testing.shaped_reverse_arange((3,), numpy)
    assert r.tolist() == [3, 2, 1]
    x = testing.shaped_random((5,), cupy, numpy.float64, scale=2, seed=3)
    y = testing.shaped_random((5,), numpy, numpy.float64, scale=2, seed=3)
    assert (x.get() == y).all() and (y < 2).all()
    b = testing.shaped_arange((3,), cupy, numpy.bool_)
    assert b.get().tolist() == [False, True, False]
    testing.assert_array_list_equal([a], [a.get()])
    testing.assert_array_almost_equal_nulp(x, y)
    testing.assert_array_max_ulp(x, y)


@testing.multi_gpu(64)
def test_multi_gpu_is_skipped():
    raise AssertionError("never runs")


@testing.slow
def test_slow_mark():
    pass


def test_product_dict():
    ps = testing.product_dict([{"a": 1}, {"a": 2}], [{"b": 3}])
    assert ps == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]
