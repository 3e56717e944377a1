"""What CuPy's basic-index assignment and ndarray.fill take as a value.

`x[...] = value` with an index of ints, slices, Ellipsis and None goes
through CuPy's `fill` when the value is not a cupy array: a non-scalar
NumPy array raises `ValueError("non-scalar numpy.ndarray cannot be used for
fill")` (the message users search for after mixing host and device
arrays), a 0-d one is its scalar, and a list raises the fill kernel's
`TypeError("Unsupported type <class 'list'>")` (CuPy's issue 5070). The
fake raised a TypeError for every NumPy array and took lists, so a
tutorial's `a[:] = host` lesson behaved differently from a GPU."""
import numpy
import pytest

NON_SCALAR = "^non-scalar numpy.ndarray cannot be used for fill$"


@pytest.mark.parametrize("index", [slice(None), slice(0, 3), Ellipsis, 0,
                                   (0, slice(None)), (None, 1)],
                         ids=["colon", "slice", "ellipsis", "int", "tuple",
                              "newaxis"])
def test_numpy_array_value_is_a_value_error(cp, index):
    x = cp.zeros((3, 3))
    with pytest.raises(ValueError, match=NON_SCALAR):
        x[index] = numpy.ones(3)
    with pytest.raises(ValueError, match=NON_SCALAR):
        x.fill(numpy.ones(3))


def test_list_value_is_refused(cp):
    x = cp.zeros((2, 2))
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'list'>$"):
        x[...] = [[1, 2], [2, 5]]
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'tuple'>$"):
        x[0] = (1, 2)
    assert x.get().tolist() == [[0, 0], [0, 0]]


def test_scalars_and_device_arrays_are_assigned(cp):
    x = cp.zeros((2, 3))
    x[0] = numpy.array(7.0)              # 0-d: its scalar
    x[1, 1:] = numpy.float32(2)
    x[:, 0] = cp.asarray([5.0, 6.0])
    assert x.get().tolist() == [[5.0, 7.0, 7.0], [6.0, 2.0, 2.0]]
    y = cp.empty(3)
    y.fill(numpy.array(1.5))
    assert y.get().tolist() == [1.5, 1.5, 1.5]


def test_advanced_indices_keep_their_behaviour(cp):
    x = cp.zeros(4)
    x[cp.asarray([0, 2])] = cp.asarray([1.0, 3.0])
    x[x > 2] = 9.0
    assert x.get().tolist() == [1.0, 0.0, 9.0, 0.0]
