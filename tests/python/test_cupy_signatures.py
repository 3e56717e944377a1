"""The fake's functions take the keywords CuPy 13's take.

The fake's cupy, cupy.linalg, cupy.fft and cupyx.scipy functions are mostly
NumPy's and SciPy's behind delegates, and accepted their newer keywords:
`cupy.sum(x, where=mask)`, `cupy.zeros(n, device=...)` or
`cupyx.scipy.fft.fft(x, workers=4)` ran on the fake and stopped on a GPU
with "TypeError: sum() got an unexpected keyword argument 'where'". The
expected signatures are CuPy 13.6.0's (fake_cupy/_cupy_signatures.py, with
how they were read); _cupy_keywords.py refuses what they do not take."""
import importlib
import inspect

import pytest

from fake_cupy import _cupy_keywords, _cupy_signatures

# Where the fake still differs: the keywords it takes that CuPy's function
# does not ("+"), and CuPy's keywords it lacks ("-"). "+*" is a fake that
# takes any keyword (its own **kwargs), checked inside or not at all. The
# parameters' order and defaults are not compared. This table is exact: a
# function brought to CuPy's keywords must leave it.
_DIFFERENCES = {
    'cupy.argmax': '-dtype',
    'cupy.argmin': '-dtype',
    'cupy.array_str': '+a -arr',
    'cupy.concatenate': '-tup',
    'cupy.corrcoef': '+x -a -bias -ddof',
    'cupy.delete': '+obj -indices',
    'cupy.empty_like': '+device -prototype',
    'cupy.flip': '+m -a',
    'cupy.fliplr': '+m -a',
    'cupy.flipud': '+m -a',
    'cupy.inner': '-a -b',
    'cupy.intersect1d': '+ar1 +ar2 -arr1 -arr2',
    'cupy.linalg.matrix_power': '+a -M',
    'cupy.may_share_memory': '-a -b',
    'cupy.packbits': '-a',
    'cupy.putmask': '-a',
    'cupy.random.beta': '+*',
    'cupy.random.binomial': '+*',
    'cupy.random.chisquare': '+*',
    'cupy.random.exponential': '+*',
    'cupy.random.f': '+*',
    'cupy.random.gamma': '+*',
    'cupy.random.geometric': '+*',
    'cupy.random.gumbel': '+*',
    'cupy.random.hypergeometric': '+*',
    'cupy.random.laplace': '+*',
    'cupy.random.logistic': '+*',
    'cupy.random.lognormal': '+*',
    'cupy.random.logseries': '+*',
    'cupy.random.negative_binomial': '+*',
    'cupy.random.noncentral_chisquare': '+*',
    'cupy.random.noncentral_f': '+*',
    'cupy.random.pareto': '+*',
    'cupy.random.poisson': '+*',
    'cupy.random.power': '+*',
    'cupy.random.rayleigh': '+*',
    'cupy.random.standard_cauchy': '+*',
    'cupy.random.standard_exponential': '+*',
    'cupy.random.standard_gamma': '+*',
    'cupy.random.standard_t': '+*',
    'cupy.random.triangular': '+*',
    'cupy.random.uniform': '+*',
    'cupy.random.vonmises': '+*',
    'cupy.random.wald': '+*',
    'cupy.random.weibull': '+*',
    'cupy.random.zipf': '+*',
    'cupy.rot90': '+m -a',
    'cupy.shares_memory': '-a -b',
    'cupy.show_config': '+mode -_full',
    'cupy.stack': '+arrays -tup',
    'cupy.take_along_axis': '+arr -a',
    'cupy.union1d': '+ar1 +ar2 -arr1 -arr2',
    'cupy.unpackbits': '+count -a',
    'cupy.unravel_index': '+shape -dims',
    'cupy.vdot': '-a -b',
    'cupyx.scipy.linalg.expm': '+A -a',
    'cupyx.scipy.ndimage.distance_transform_edt': '+input -block_params -float64_distances -image',
    'cupyx.scipy.ndimage.value_indices': '-adaptive_index_dtype',
    'cupyx.scipy.signal.firwin2': '-nyq',
    'cupyx.scipy.signal.symiirorder1': '+signal -input',
    'cupyx.scipy.spatial.distance.jensenshannon': '+axis +base +keepdims +p +q -u -v',
    'cupyx.scipy.special.round': '+casting +dtype +order +signature +subok +where -a -decimals',
}


def _differences():
    found = {}
    for module_name, functions in _cupy_signatures.SIGNATURES.items():
        module = importlib.import_module(module_name)
        for name, text in functions.items():
            try:
                func = getattr(module, name)
            except AttributeError:
                continue            # test_cupy_namespace.py lists these
            try:
                own = inspect.signature(func)
            except (TypeError, ValueError):
                continue            # a ufunc where CuPy has a function
            own = own.replace(parameters=[
                p.replace(annotation=inspect.Parameter.empty)
                for p in own.parameters.values()],
                return_annotation=inspect.Signature.empty)
            cupy = _cupy_keywords.cupy_keywords(module_name, name)
            fake = _cupy_keywords.keywords(_cupy_keywords.parameters(str(own)))
            if fake is None and cupy is None:
                continue
            if fake is None:
                delta = ["+*"]
            elif cupy is None:
                continue            # CuPy's takes any keyword
            else:
                cupy_13 = _cupy_keywords.keywords(_cupy_keywords.parameters(text))
                delta = sorted("+" + n for n in fake - cupy) + \
                    sorted("-" + n for n in cupy_13 - fake)
            if delta:
                found[f"{module_name}.{name}"] = " ".join(delta)
    return found


@pytest.fixture
def installed(cp):
    from fake_cupy import _install
    was = _install.installed()
    if not was:
        cp.install()
    yield
    if not was:
        cp.uninstall()


def test_signatures_match_cupys_but_for_the_listed_differences(installed):
    assert _differences() == _DIFFERENCES


def test_keywords_cupy_refuses_are_refused(cp, installed):
    import cupyx.scipy.fft
    x = cp.arange(4.0)
    with pytest.raises(TypeError, match=r"^sum\(\) got an unexpected keyword argument 'where'$"):
        cp.sum(x, where=x > 1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'initial'"):
        cp.max(x, initial=0.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'correction'"):
        cp.std(x, correction=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'device'"):
        cp.zeros(3, device="cpu")
    with pytest.raises(TypeError, match="unexpected keyword argument 'workers'"):
        cupyx.scipy.fft.fft(x, workers=2)
    # NumPy's sixth positional argument of sum (initial) is not CuPy's.
    with pytest.raises(TypeError, match=r"^sum\(\) takes 5 positional arguments but 6 were given$"):
        cp.sum(x, None, None, None, False, 1.0)
    # CuPy's own keywords keep working.
    assert float(cp.sum(x, axis=0, keepdims=False)) == 6.0
    assert cp.zeros(3, dtype=cp.float32, order="C").dtype == cp.float32
    assert "where" not in inspect.signature(cp.sum).parameters
