"""The parameters of CuPy 13's reductions, which are narrower than NumPy's:
CuPy's sum, mean, max, ... and the ndarray methods of the same names take
no `where=` and no `initial=` (cupy/_math/sumprod.py, cupy/_statistics/,
cupy/_core/_routines_math.pyx), average takes no `keepdims` and
count_nonzero only `axis`. NumPy's take them, so a masked mean written as
`xp.mean(frame, where=good)` ran on the fake and raised TypeError on a GPU
("mean() got an unexpected keyword argument 'where'"); now it does here.
"""

_SUM = ("axis", "dtype", "out", "keepdims")
_VAR = ("axis", "dtype", "out", "ddof", "keepdims")
_MAX = ("axis", "out", "keepdims")
_MEDIAN = ("axis", "out", "overwrite_input", "keepdims")
_ARG = ("axis", "dtype", "out", "keepdims")
_CUMULATIVE = ("axis", "dtype", "out")

# Keyword names each function or method accepts (its first argument, the
# array, aside).
PARAMETERS = {
    "sum": _SUM, "prod": _SUM, "nansum": _SUM, "nanprod": _SUM,
    "mean": _SUM, "nanmean": _SUM,
    "var": _VAR, "std": _VAR, "nanvar": _VAR, "nanstd": _VAR,
    "max": _MAX, "min": _MAX, "amax": _MAX, "amin": _MAX,
    "nanmax": _MAX, "nanmin": _MAX, "all": _MAX, "any": _MAX, "ptp": _MAX,
    "median": _MEDIAN, "nanmedian": _MEDIAN,
    "argmax": _ARG, "argmin": _ARG,
    "cumsum": _CUMULATIVE, "cumprod": _CUMULATIVE,
    "nancumsum": _CUMULATIVE, "nancumprod": _CUMULATIVE,
    "average": ("axis", "weights", "returned"),
    "count_nonzero": ("axis",),
}


# cupy.max and cupy.min are CuPy's amax and amin, which name themselves.
_FUNCTION_NAMES = {"max": "amax", "min": "amin"}


def check(name, kwargs, method=False):
    """CuPy's TypeError for a keyword its function (or, with `method`,
    ndarray method) `name` does not take."""
    accepted = PARAMETERS.get(name)
    if accepted is None:
        return
    for keyword in kwargs:
        # The functions' array parameter is `a` (cupy.any(a=x)).
        if keyword not in accepted and (method or keyword != "a"):
            shown = name if method else _FUNCTION_NAMES.get(name, name)
            raise TypeError(f"{shown}() got an unexpected keyword argument "
                            f"'{keyword}'")
