"""cupyx.scipy.ndimage.distance_transform_edt of the fake CuPy, with CuPy
13's arguments (cupyx/scipy/ndimage/_distance_transform.py): the
keyword-only block_params (the parallel banding algorithm's parameters,
which change nothing in the result) and float64_distances (True: float64
distances, as SciPy's; False: float32), which SciPy refuses
(TypeError). CuPy transforms 2-D and 3-D images only
(NotImplementedError otherwise), where SciPy takes any rank. The distances
and indices are SciPy's exact transform: CuPy's indices may differ where a
point is equally near two background points."""
import functools

import numpy
import scipy.ndimage

from fake_cupy import _functions

_scipy_edt = _functions.delegate(scipy.ndimage.distance_transform_edt)


@functools.wraps(scipy.ndimage.distance_transform_edt)
def distance_transform_edt(image, sampling=None, return_distances=True,
                           return_indices=False, distances=None, indices=None,
                           *, block_params=None, float64_distances=True):
    if image.ndim not in (2, 3):
        raise NotImplementedError(
            "Only 2D and 3D distance transforms are supported.")
    if float64_distances or distances is None:
        vals = _scipy_edt(image, sampling, return_distances, return_indices,
                          distances, indices)
        if float64_distances or not return_distances:
            return vals
        if isinstance(vals, tuple):
            return (vals[0].astype(numpy.float32),) + vals[1:]
        return vals.astype(numpy.float32)
    # A float32 distances array given as the output: SciPy writes float64
    # only, so the distances are computed apart and stored into it.
    computed = _scipy_edt(image, sampling, True, return_indices, None, indices)
    distances[...] = computed[0] if isinstance(computed, tuple) else computed
    return computed[1] if return_indices and indices is None else None
