"""cupyx.errstate, cupyx.seterr and cupyx.geterr: CuPy's per-thread error
modes.

As in CuPy, only two modes can be set: ``linalg`` ('ignore', the default:
cupy.linalg does not read cuSOLVER's status back, so a singular matrix gives
inf and nan; 'raise': numpy.linalg.LinAlgError) and ``fallback_mode``
(cupyx.fallback_mode's notification). ``divide``, ``over``, ``under`` and
``invalid`` raise NotImplementedError when given, since CuPy's kernels do
not trap floating-point errors. Every argument is keyword-only. A call of
seterr stores all six values, the omitted floating-point ones and linalg as
None (None behaves as 'ignore'), and returns the previous state, which
errstate restores on leaving."""
import contextlib
import threading

_state = threading.local()

_DEFAULTS = {"divide": None, "over": None, "under": None, "invalid": None,
             "linalg": "ignore", "fallback_mode": "ignore"}
_LINALG_MODES = ("ignore", "raise")
_FALLBACK_MODES = ("print", "warn", "ignore", "raise")
_FALLBACK_NOT_IMPLEMENTED = ("log", "call")


def geterr():
    """This thread's modes, as a dict of the six names."""
    return {name: getattr(_state, name, default)
            for name, default in _DEFAULTS.items()}


def seterr(*, divide=None, over=None, under=None, invalid=None, linalg=None,
           fallback_mode=None):
    """Sets this thread's modes; returns the previous ones."""
    old = geterr()
    for name, value in (("divide", divide), ("over", over), ("under", under),
                        ("invalid", invalid)):
        if value is not None:
            raise NotImplementedError(
                f"cupyx.seterr({name}=...): CuPy does not trap "
                "floating-point errors")
    if linalg is not None and linalg not in _LINALG_MODES:
        raise NotImplementedError(f"cupyx.seterr(linalg={linalg!r}): only "
                                  "'ignore' and 'raise' are supported")
    if fallback_mode is not None:
        if fallback_mode in _FALLBACK_NOT_IMPLEMENTED:
            raise NotImplementedError(
                f"cupyx.seterr(fallback_mode={fallback_mode!r})")
        if fallback_mode not in _FALLBACK_MODES:
            raise ValueError(f"{fallback_mode} is not a valid dispatch type")
        _state.fallback_mode = fallback_mode
    _state.divide, _state.over = divide, over
    _state.under, _state.invalid = under, invalid
    _state.linalg = linalg
    return old


@contextlib.contextmanager
def errstate(*, divide=None, over=None, under=None, invalid=None,
             linalg=None, fallback_mode=None):
    """Sets the modes for the body of a with statement."""
    old = seterr(divide=divide, over=over, under=under, invalid=invalid,
                 linalg=linalg, fallback_mode=fallback_mode)
    try:
        yield
    finally:
        seterr(**old)


def linalg_raises():
    """Whether cupy.linalg raises LinAlgError for a singular matrix."""
    return geterr()["linalg"] == "raise"
