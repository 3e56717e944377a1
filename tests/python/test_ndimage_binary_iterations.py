"""CuPy iterates binary erosion and dilation in brute-force mode only
(cupyx/scipy/ndimage/_morphology.py): `binary_opening(mask, iterations=2)`,
SciPy's idiom for removing specks from a cloud or water mask, ran on the
fake and raises NotImplementedError on a GPU unless brute_force=True."""
import numpy
import pytest
import scipy.ndimage



@pytest.fixture
def mask(cp):
    m = numpy.zeros((9, 9), bool)
    m[2:7, 2:7] = True
    m[0, 0] = True
    return m


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation",
                                  "binary_opening", "binary_closing"])
def test_iterations_need_brute_force(ndi, cp, mask, name):
    func = getattr(ndi, name)
    for iterations in (2, 0, -1):
        with pytest.raises(NotImplementedError, match="^only brute_force iteration has been implemented$"):
            func(cp.asarray(mask), iterations=iterations)
    with pytest.raises(NotImplementedError):
        func(cp.asarray(mask), structure=cp.ones((3, 3), bool), iterations=2)
    got = func(cp.asarray(mask), iterations=2, brute_force=True)
    want = getattr(scipy.ndimage, name)(mask, iterations=2)
    assert (got.get() == want).all()
    assert (func(cp.asarray(mask)).get() == getattr(scipy.ndimage, name)(mask)).all()


def test_structure_and_iterations_types(ndi, cp, mask):
    # A structure whose centre is not set iterates without brute force.
    corners = cp.asarray([[1, 0, 1], [0, 0, 0], [1, 0, 1]])
    got = ndi.binary_erosion(cp.asarray(mask), corners, iterations=2)
    want = scipy.ndimage.binary_erosion(mask, corners.get(), iterations=2)
    assert (got.get() == want).all()
    with pytest.raises(AttributeError, match="'list' object has no attribute 'astype'"):
        ndi.binary_opening(cp.asarray(mask), [[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    with pytest.raises(TypeError, match="^iterations parameter should be an integer$"):
        ndi.binary_opening(cp.asarray(mask), iterations=2.0, brute_force=True)
    # binary_fill_holes and binary_propagation iterate in brute force.
    assert (ndi.binary_fill_holes(cp.asarray(mask)).get() == mask).all()
