"""cupy.concatenate joins cupy arrays only.

CuPy's concatenate turns each item of its sequence into a kernel argument
first (a list or a NumPy array raises `TypeError("Unsupported type <class
...>")`) and then requires arrays (a scalar raises `TypeError("Only cupy
arrays can be concatenated")`). A CUDA Python tutorial's exercise makes
the point: NumPy's concatenate takes anything array-like, CuPy's needs
device arrays. The fake joined the list."""
import numpy
import pytest


def test_list_item_is_refused(cp):
    w = cp.arange(3.0)
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'list'>$"):
        cp.concatenate(([1.0], w))
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'tuple'>$"):
        cp.concatenate([w, (1.0, 2.0)])


def test_numpy_array_item_is_refused(cp):
    with pytest.raises(TypeError,
                       match=r"^Unsupported type <class 'numpy.ndarray'>$"):
        cp.concatenate((cp.arange(2), numpy.arange(2)))


def test_scalar_item_is_refused(cp):
    with pytest.raises(TypeError, match="^Only cupy arrays can be concatenated$"):
        cp.concatenate((cp.arange(2), 5))


def test_device_arrays_are_joined(cp):
    w = cp.arange(3.0)
    r = cp.concatenate((cp.asarray([1.0]), w))
    assert r.get().tolist() == [1.0, 0.0, 1.0, 2.0]
    assert cp.concatenate([w.reshape(1, 3), w.reshape(1, 3)], axis=0).shape == (2, 3)
    assert cp.concatenate([w, w], axis=None).size == 6
