"""cupy.typing: the annotations module public code imports next to cupy
(``from cupy.typing import NDArray``, found in cupy-som's numeric.py, which
falls back to NumPy silently when that import fails)."""
import subprocess
import sys
import typing

import numpy

import fake_cupy


def test_import_cupy_typing_gives_cupys_names(cp):
    fake_cupy.install()
    try:
        import cupy.typing
        from cupy.typing import ArrayLike, DTypeLike, NDArray
        assert cp.typing is cupy.typing
        # NDArray[T] is the fake ndarray parametrized by numpy.dtype[T], as
        # CuPy's cupy.ndarray[Any, numpy.dtype[T]].
        alias = NDArray[numpy.float64]
        assert typing.get_origin(alias) is cp.ndarray
        assert typing.get_args(alias) == (typing.Any, numpy.dtype[numpy.float64])
        assert typing.get_origin(cp.ndarray[typing.Any, numpy.dtype[numpy.int32]]) is cp.ndarray
        assert DTypeLike is numpy.typing.DTypeLike
        assert ArrayLike is not None
        assert set(cupy.typing.__all__) >= {"ArrayLike", "DTypeLike", "NDArray"}
    finally:
        fake_cupy.uninstall()


def test_a_module_annotating_with_ndarray_alias_runs_on_the_fake(tmp_path):
    # The pattern of cupy-som: try cupy + cupy.typing, else NumPy.
    prog = tmp_path / "prog.py"
    prog.write_text(
        "from typing import TypeAlias\n"
        "try:\n"
        "    import cupy as xp\n"
        "    from cupy.typing import NDArray\n"
        "except ImportError:\n"
        "    import numpy as xp\n"
        "    from numpy.typing import NDArray\n"
        "Array: TypeAlias = NDArray[xp.double]\n"
        "def f(a: Array) -> Array:\n"
        "    return a * 2\n"
        "print(type(f(xp.ones(2))).__module__)\n")
    out = subprocess.run([sys.executable, "-m", "fake_cupy", str(prog)],
                         check=True, capture_output=True, text=True).stdout
    assert out.split() == ["cupy"]
