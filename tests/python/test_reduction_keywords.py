"""CuPy 13's reductions take narrower keywords than NumPy's
(cupy/_math/sumprod.py, cupy/_statistics/): no `where=` and no `initial=`
for sum, mean, std, max, ... (functions and ndarray methods), no `keepdims`
for average, only `axis` for count_nonzero. A masked mean written for NumPy
(`xp.mean(frame, where=good)`) ran on the fake and raised TypeError on a
GPU."""
import numpy
import pytest


@pytest.mark.parametrize("name, kwargs", [
    ("mean", {"where": True}), ("sum", {"where": True}),
    ("sum", {"initial": 1.0}), ("std", {"where": True}),
    ("var", {"where": True}), ("nanmean", {"where": True}),
    ("nansum", {"initial": 0.0}), ("prod", {"initial": 1.0}),
    ("any", {"where": True}), ("all", {"where": True}),
    ("average", {"keepdims": True}), ("count_nonzero", {"keepdims": True}),
])
def test_numpy_only_keywords_are_refused(cp, name, kwargs):
    x = cp.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError, match=f"^{name}\\(\\) got an unexpected keyword argument '{next(iter(kwargs))}'$"):
        getattr(cp, name)(x, **kwargs)


def test_max_min_and_methods(cp):
    x = cp.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError, match=r"^amax\(\) got an unexpected keyword argument 'initial'$"):
        cp.max(x, initial=10)
    with pytest.raises(TypeError, match=r"^amin\(\) got an unexpected keyword argument 'where'$"):
        cp.min(x, where=x > 1, initial=9)
    for method in ("mean", "sum", "max", "min", "std", "any"):
        with pytest.raises(TypeError, match=f"^{method}\\(\\) got an unexpected keyword argument 'where'$"):
            getattr(x, method)(where=x > 1)


def test_cupys_keywords_still_work(cp):
    x = cp.arange(6.0).reshape(2, 3)
    assert cp.sum(x, axis=0, dtype=numpy.float32, keepdims=True).shape == (1, 3)
    assert x.max(axis=1, keepdims=True).get().tolist() == [[2.0], [5.0]]
    assert cp.std(x, axis=0, ddof=1).shape == (3,)
    assert cp.median(x, axis=0, overwrite_input=False, keepdims=True).shape == (1, 3)
    assert cp.average(x, axis=0, weights=cp.ones(2), returned=True)[1].shape == (3,)
    assert int(cp.count_nonzero(x, axis=None)) == 5
    assert x.cumsum(axis=0, dtype=numpy.float32).dtype == numpy.float32
    assert cp.argmax(x, axis=1, keepdims=True).shape == (2, 1)
