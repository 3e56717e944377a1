"""What CuPy's stacking functions take besides cupy arrays.

CuPy's `hstack`, `vstack` and `dstack` pass each item through
`atleast_1d`/`atleast_2d`/`atleast_3d`, which call `cupy.asarray`: a NumPy
array, a list or a scalar is copied to the device, so
`cp.hstack((d, host))` works on a GPU (the fake refused it with
"Unsupported type <class 'numpy.ndarray'>"). `column_stack` instead raises
`TypeError("Only cupy arrays can be column stacked")` for anything but a
cupy array (the fake joined lists)."""
import numpy
import pytest


@pytest.mark.parametrize("name, expected", [
    ("hstack", [0, 1, 0, 1]),
    ("vstack", [[0, 1], [0, 1]]),
    ("dstack", [[[0, 0], [1, 1]]]),
])
def test_stacks_copy_host_items_to_the_device(cp, name, expected):
    d = cp.arange(2)
    for host in (numpy.arange(2), [0, 1]):
        r = getattr(cp, name)((d, host))
        assert isinstance(r, cp.ndarray)
        assert r.get().tolist() == expected


def test_atleast_nd_copy_host_arrays(cp):
    r = cp.atleast_2d(numpy.arange(3))
    assert isinstance(r, cp.ndarray) and r.shape == (1, 3)
    a, b = cp.atleast_1d(5.0, numpy.ones(2))
    assert isinstance(a, cp.ndarray) and a.shape == (1,)
    assert isinstance(b, cp.ndarray) and b.get().tolist() == [1.0, 1.0]


def test_column_stack_takes_cupy_arrays_only(cp):
    d = cp.arange(2)
    for other in ([0, 1], numpy.arange(2)):
        with pytest.raises(TypeError,
                           match="^Only cupy arrays can be column stacked$"):
            cp.column_stack((d, other))
    assert cp.column_stack((d, d)).get().tolist() == [[0, 0], [1, 1]]
