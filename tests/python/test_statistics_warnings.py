"""CuPy's mean, var, std, median, average and their nan-forms give NaN for
an empty or all-NaN slice without a warning: their reduction kernels
(cupy/_core/_routines_statistics.pyx) divide by a zero count. NumPy's warn
("Mean of empty slice", "All-NaN slice encountered", "Degrees of freedom
<= 0 for slice"), so a sigma-clipped stack whose rejection empties a pixel
column, run with warnings as errors, stopped on the fake and not on a GPU.
cupy.nanmin and cupy.nanmax do warn of an all-NaN slice, as NumPy's."""
import warnings

import numpy
import pytest


@pytest.fixture
def stack(cp):
    # Three frames; the first pixel was rejected in all of them.
    frames = cp.ones((3, 2, 2), dtype=numpy.float32)
    frames[:, 0, 0] = cp.nan
    return frames


@pytest.mark.parametrize("name", ["nanmean", "nanmedian", "nanvar", "nanstd"])
def test_all_nan_slice_gives_nan_quietly(cp, stack, name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = getattr(cp, name)(stack, axis=0).get()
    assert numpy.isnan(got[0, 0]) and not numpy.isnan(got[1:, 1:]).any()


@pytest.mark.parametrize("name", ["mean", "var", "std", "median", "average"])
def test_empty_slice_gives_nan_quietly(cp, name):
    empty = cp.zeros((0, 3), dtype=numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = getattr(cp, name)(empty, axis=0)
        assert numpy.isnan(got.get()).all()
        if name in ("mean", "var", "std"):
            assert numpy.isnan(getattr(empty, name)(axis=0).get()).all()


@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
def test_nanmin_and_nanmax_still_warn(cp, stack, name):
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = getattr(cp, name)(stack, axis=0)
    assert numpy.isnan(got.get()[0, 0])
