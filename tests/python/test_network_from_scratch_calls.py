"""Calls that neural networks and regressions written from scratch on CuPy make,
as CuPy 13 answers them: `asfarray` of rows read from a CSV file, and the
module-level `reshape` with CuPy's own keyword."""
import numpy
import pytest


def test_asfarray_copies_csv_fields_as_float64(cp):
    # A training loop reads "label,p0,p1,..." lines and converts the pixel
    # strings on the device: CuPy's asfarray is asarray with a float dtype.
    label, *pixels = "7,0,128,255".split(",")
    row = cp.asfarray(pixels)
    assert isinstance(row, cp.ndarray) and row.dtype == numpy.float64
    assert row.get().tolist() == [0.0, 128.0, 255.0]
    scaled = row / 255 * 0.99 + 0.01
    assert scaled.dtype == numpy.float64 and scaled.shape == (3,)


def test_asfarray_keeps_inexact_dtypes_and_widens_integer_ones(cp):
    ints = cp.arange(4, dtype=cp.int32)
    assert cp.asfarray(ints).dtype == numpy.float64
    assert cp.asfarray(ints, dtype=cp.int8).dtype == numpy.float64
    assert cp.asfarray(ints, dtype=cp.float16).dtype == numpy.float16
    assert cp.asfarray(ints, dtype="complex64").dtype == numpy.complex64
    halves = cp.ones(3, dtype=cp.float32)
    # asarray of an array already of that dtype is the array itself.
    assert cp.asfarray(halves, dtype=cp.float32) is halves


def test_reshape_takes_newshape_and_refuses_numpy2s_shape(cp):
    filters = cp.arange(24, dtype=cp.float32).reshape(2, 3, 2, 2)
    flat = cp.reshape(filters, newshape=(filters.shape[0], -1))
    assert flat.shape == (2, 12) and flat.base is not None
    assert cp.reshape(filters, (4, 6), order="F").get().tolist() == \
        filters.get().reshape((4, 6), order="F").tolist()
    with pytest.raises(TypeError):
        cp.reshape(filters, shape=(2, 12))
    with pytest.raises(AttributeError):
        cp.reshape([1, 2, 3, 4], (2, 2))


def test_ufunc_methods_are_cupys(cp):
    # Scatter-adding gradients (an embedding's or a col2im's) is CuPy's add.at;
    # the methods CuPy 13's ufuncs lack raise its NotImplementedError.
    grad = cp.zeros((4, 2))
    cp.add.at(grad, cp.array([0, 2, 0]), cp.ones((3, 2)))
    assert grad.get().tolist() == [[2, 2], [0, 0], [1, 1], [0, 0]]
    counts = cp.zeros(3, dtype=cp.int32)
    cp.bitwise_or.at(counts, cp.array([1, 1]), 4)
    cp.subtract.at(counts, (cp.array([2]),), 5)
    assert counts.get().tolist() == [0, 4, -5]
    x = cp.arange(6.0).reshape(2, 3)
    assert cp.add.reduce(x, axis=1).get().tolist() == [3.0, 12.0]
    assert cp.multiply.accumulate(x + 1, axis=1).get().tolist() == \
        [[1, 2, 6], [4, 20, 120]]
    assert cp.add.reduceat(cp.arange(6.0), cp.array([0, 3])).get().tolist() == [3, 12]
    assert cp.maximum.outer(cp.arange(2), cp.arange(3)).shape == (2, 3)
    for call, message in (
            (lambda: cp.multiply.at(x, cp.array([0]), 2.0), "`cupy_multiply.at`"),
            (lambda: cp.divide.at(x, cp.array([0]), 2.0), "`cupy_true_divide.at`"),
            (lambda: cp.maximum.at(x, cp.array([0]), 2.0), "`cupy_maximum.at`"),
            (lambda: cp.maximum.reduce(x, axis=1), "`cupy_maximum.reduce`"),
            (lambda: cp.logaddexp.reduce(x, axis=1), "`cupy_logaddexp.reduce`"),
            (lambda: cp.maximum.accumulate(x, axis=1), "`cupy_maximum.accumulate`"),
            (lambda: cp.multiply.reduceat(x, cp.array([0]), axis=1),
             "`cupy_multiply.reduceat`")):
        with pytest.raises(NotImplementedError, match=message):
            call()
    # Nothing was written by the refused calls.
    assert x.get().tolist() == [[0, 1, 2], [3, 4, 5]]


def test_in_place_writes_through_overlapping_windows_are_races(cp, monkeypatch):
    # A col2im that adds columns into as_strided windows of a padded image:
    # where windows overlap, CuPy's element-wise kernel has several threads
    # write one address (nothing is summed). Racecheck reports it.
    import cuemu
    image = cp.zeros(6)
    windows = cp.lib.stride_tricks.as_strided(image, shape=(4, 3), strides=(8, 8))
    cols = cp.ones((4, 3))
    cuemu.check_reports_clear()
    windows += cols
    assert cuemu.check_reports()[0] == 0
    assert image.get().tolist() == [1.0] * 6
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "race")
    windows += cols
    count, last = cuemu.check_reports()
    assert count == 1
    assert "WAW" in last and "cupy.add" in last
    assert "test_network_from_scratch_calls.py:" in last
    cp.multiply(windows, 2.0, out=windows)
    windows[...] = cols
    assert cuemu.check_reports()[0] == 3
    # Views whose elements are apart are no race, whatever their strides.
    grid = cp.zeros((4, 6))
    grid[:, ::2] += 1
    grid.T[1:] *= 2
    cp.add(grid[::-1, 1::3], 1.0, out=grid[::-1, 1::3])
    cp.lib.stride_tricks.as_strided(grid, shape=(2, 3), strides=(96, 16))[...] = 5
    assert cuemu.check_reports()[0] == 3
    cuemu.check_reports_clear()


def test_scalar_conversions_are_numpys_of_the_copy(cp):
    # A logistic regression on column vectors computes its cost as
    # -(y.T @ log(a) + ...) / m, of shape (1, 1), then float(cost): CuPy
    # converts the host copy, so it follows the installed NumPy (an error
    # since NumPy 2.4, a DeprecationWarning before).
    import warnings
    for value in (2.5, [2.5], [[2.5]], [1.0, 2.0]):
        host = numpy.array(value)
        for convert in (float, int, complex):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                try:
                    expected = convert(host)
                except (TypeError, ValueError, DeprecationWarning) as error:
                    with pytest.raises(type(error)):
                        convert(cp.array(value))
                else:
                    assert convert(cp.array(value)) == expected


def test_format_is_numpys_of_the_copy(cp):
    # Training loops print f"loss {loss:.4f}": CuPy formats the host copy, so
    # a 0-d loss prints and a (1,) one is NumPy's TypeError.
    assert f"{cp.array(1.5):.4f}" == "1.5000"
    assert f"{cp.float32(2.25) * cp.ones(()):>8.2f}" == "    2.25"
    assert f"{cp.array([1.5, 2.0])}" == "[1.5 2. ]"
    for spec in (".4f", ">8"):
        with pytest.raises(TypeError):
            format(numpy.array([1.5]), spec)
        with pytest.raises(TypeError):
            format(cp.array([1.5]), spec)
