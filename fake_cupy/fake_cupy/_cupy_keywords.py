"""CuPy 13's keywords for the fake's delegates: a function the fake takes
from NumPy or SciPy accepts their newer keywords (where=, initial=,
device=, like=, workers=, ...), which CuPy's function refuses with Python's
TypeError; a program that passed one ran on the fake and stopped on a GPU.
`checked` wraps such a delegate so that it refuses what CuPy's signature
(_cupy_signatures.py) does not take, by keyword or by position."""
import functools
import inspect

from fake_cupy import _cupy_signatures

_KIND = inspect.Parameter

# The names of each module's functions whose signatures are stored.
SIGNED = {module: frozenset(functions)
          for module, functions in _cupy_signatures.SIGNATURES.items()}


def parameters(text):
    """The parameters of a signature's text, '(a, axis=None, *, out=None)':
    a list of (name, kind, default text or None), kind one of inspect's
    Parameter kinds."""
    parts, depth, quote, start = [], 0, None, 1
    for i, c in enumerate(text[1:-1], 1):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:-1].strip():
        parts.append(text[start:-1].strip())
    out, kind = [], _KIND.POSITIONAL_OR_KEYWORD
    if "/" in parts:
        kind = _KIND.POSITIONAL_ONLY
    for part in parts:
        if part == "/":
            kind = _KIND.POSITIONAL_OR_KEYWORD
        elif part == "*":
            kind = _KIND.KEYWORD_ONLY
        elif part.startswith("**"):
            out.append((part[2:], _KIND.VAR_KEYWORD, None))
        elif part.startswith("*"):
            out.append((part[1:], _KIND.VAR_POSITIONAL, None))
            kind = _KIND.KEYWORD_ONLY
        else:
            name, _, default = part.partition("=")
            out.append((name, kind, default or None))
    return out


def keywords(params):
    """The names a call may pass by keyword, or None where any is taken."""
    if any(kind == _KIND.VAR_KEYWORD for _, kind, _ in params):
        return None
    return {name for name, kind, _ in params
            if kind in (_KIND.POSITIONAL_OR_KEYWORD, _KIND.KEYWORD_ONLY)}


def cupy_keywords(module, name):
    """The keywords a CuPy release takes in `module`.`name` (CuPy 13.6's
    and CuPy 14.2's additions), or None where it takes any."""
    taken = keywords(parameters(_cupy_signatures.SIGNATURES[module][name]))
    added = _cupy_signatures.KEYWORDS_14_ADDED.get(module, {}).get(name, "")
    return None if taken is None else taken | set(added.split())


def _positionals(params):
    """How many arguments a call may pass by position, or None for any."""
    if any(kind == _KIND.VAR_POSITIONAL for _, kind, _ in params):
        return None
    return sum(kind in (_KIND.POSITIONAL_ONLY, _KIND.POSITIONAL_OR_KEYWORD)
               for _, kind, _ in params)


class _Default:
    """A default shown as CuPy's signature's text shows it."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def checked(module, name, func):
    """`func` (the fake's `module`.`name`, 'cupy'/'sum') refusing the
    keywords and the extra positional arguments that CuPy's function does
    not take; `func` itself where CuPy's signature is not stored, where
    `func` takes nothing more, or where it lacks one of CuPy's keywords
    (tests/python/test_cupy_signatures.py lists those)."""
    text = _cupy_signatures.SIGNATURES.get(module, {}).get(name)
    if text is None or getattr(func, "cupy_keywords_checked", False):
        return func
    try:
        own = inspect.signature(func)
    except (TypeError, ValueError):
        return func
    cupy_params = parameters(text)
    accepted = cupy_keywords(module, name)
    own_params = parameters(str(own.replace(
        parameters=[p.replace(annotation=_KIND.empty) for p in own.parameters.values()],
        return_annotation=inspect.Signature.empty)))
    taken = keywords(own_params)
    if accepted is None or (taken is not None and not accepted <= taken):
        return func
    most = _positionals(cupy_params)
    shown = _cupy_signatures.FUNCTION_NAMES.get(module, {}).get(name, name)
    if taken == accepted and _positionals(own_params) == most:
        return func

    @functools.wraps(func)
    def call(*args, **kwargs):
        for key in kwargs:
            if key not in accepted:
                raise TypeError(f"{shown}() got an unexpected keyword argument {key!r}")
        if most is not None and len(args) > most:
            raise TypeError(f"{shown}() takes {most} positional arguments but "
                            f"{len(args)} were given")
        return func(*args, **kwargs)
    # What the fake accepts now: its own parameters less those CuPy lacks,
    # those past CuPy's positional ones taken by keyword only.
    kept, by_keyword, position = [], [], 0
    for p in own.parameters.values():
        if p.kind in (_KIND.POSITIONAL_OR_KEYWORD, _KIND.KEYWORD_ONLY) and \
                p.name not in accepted:
            continue
        if p.kind in (_KIND.POSITIONAL_ONLY, _KIND.POSITIONAL_OR_KEYWORD):
            position += 1
            if most is not None and position > most:
                if p.kind == _KIND.POSITIONAL_OR_KEYWORD:
                    by_keyword.append(p.replace(kind=_KIND.KEYWORD_ONLY))
                continue
        if p.kind == _KIND.KEYWORD_ONLY:
            by_keyword.append(p)
        elif p.kind == _KIND.VAR_KEYWORD:
            # CuPy's keywords that `func` takes through **kwargs.
            named = {q.name for q in kept + by_keyword}
            by_keyword += [_KIND(n, _KIND.KEYWORD_ONLY,
                                 default=_KIND.empty if d is None else _Default(d))
                           for n, kind, d in cupy_params
                           if n in accepted - named and kind != _KIND.POSITIONAL_ONLY]
        else:
            kept.append(p)
    call.__signature__ = own.replace(parameters=kept + by_keyword)
    call.cupy_keywords_checked = True
    return call
