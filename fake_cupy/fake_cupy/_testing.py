"""cupy.testing's comparison helpers: fake arrays and NumPy arrays are both
accepted and compared on the host."""
import numpy


def _host(x):
    from fake_cupy._ndarray import ndarray
    return x.get() if isinstance(x, ndarray) else x


def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg="", verbose=True):
    numpy.testing.assert_allclose(_host(actual), _host(desired), rtol=rtol,
                                  atol=atol, err_msg=err_msg, verbose=verbose)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False):
    numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg,
                                     verbose=verbose)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    numpy.testing.assert_array_almost_equal(_host(x), _host(y), decimal=decimal,
                                            err_msg=err_msg, verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    numpy.testing.assert_array_less(_host(x), _host(y), err_msg=err_msg,
                                    verbose=verbose)
