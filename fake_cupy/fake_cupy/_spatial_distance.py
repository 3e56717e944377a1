"""cupyx.scipy.spatial.distance's functions that SciPy's module lacks:
hellinger and kl_divergence (0-d device arrays in u's dtype, as CuPy's
1x1 output's element is) and distance_matrix (cdist's Minkowski distance,
as cupyx/scipy/spatial/distance.py computes it)."""
import numpy


def _cupy():
    import fake_cupy
    return fake_cupy


def _same_layout(u, v):
    cp = _cupy()
    u_order = "F" if cp.isfortran(u) else "C"
    v_order = "F" if cp.isfortran(v) else "C"
    if u_order != v_order:
        raise ValueError("u and v must have the same layout "
                         f"(u.order={u_order}, v.order={v_order}")


def _scalar(value, dtype):
    return _cupy().asarray(numpy.asarray(value).astype(dtype))


def hellinger(u, v):
    """sqrt(sum((sqrt(u) - sqrt(v))**2)) / sqrt(2), in u's dtype."""
    cp = _cupy()
    u, v = cp.asarray(u), cp.asarray(v)
    _same_layout(u, v)
    hu, hv = u.get().astype(numpy.float64), v.get().astype(numpy.float64)
    d = numpy.sqrt(numpy.sum((numpy.sqrt(hu) - numpy.sqrt(hv)) ** 2)) / numpy.sqrt(2)
    return _scalar(d, u.dtype)


def kl_divergence(u, v):
    """sum(u * log(u / v)), in u's dtype."""
    cp = _cupy()
    u, v = cp.asarray(u), cp.asarray(v)
    _same_layout(u, v)
    hu, hv = u.get().astype(numpy.float64), v.get().astype(numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        d = numpy.sum(hu * numpy.log(hu / hv))
    return _scalar(d, u.dtype)


def distance_matrix(x, y, p=2.0):
    """The (M, N) Minkowski p-distances between x's M rows and y's N."""
    cp = _cupy()
    x, y = cp.asarray(x), cp.asarray(y)
    m, k = x.shape
    n, kk = y.shape
    if k != kk:
        raise ValueError(f"x contains {k}-dimensional vectors but y "
                         f"contains {kk}-dimensional vectors")
    import cupyx.scipy.spatial.distance as distance
    return distance.cdist(x, y, metric="minkowski", p=p)


FUNCTIONS = {"hellinger": hellinger, "kl_divergence": kl_divergence,
             "distance_matrix": distance_matrix}
