"""Making ``import cupy`` and ``import cupyx`` return the fake."""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

_NAMES = ("cupy", "cupyx")


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """While the fake is installed its module is named ``cupy`` (code
    branches on ``xp.__name__ == 'cupy'``), and Python's ``from package
    import submodule`` imports a submodule not loaded yet by that name:
    ``cupy.NAME`` is then the module ``fake_cupy.NAME``, imported once under
    its own name, never a second copy."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("cupy.") or not installed():
            return None
        own = "fake_cupy." + fullname[len("cupy."):]
        if own not in sys.modules:
            try:
                if importlib.util.find_spec(own) is None:
                    return None
            except (ImportError, ValueError):
                return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        return importlib.import_module("fake_cupy." + spec.name[len("cupy."):])

    def exec_module(self, module):
        """The module ran when it was imported under its own name."""


ALIAS_FINDER = _AliasFinder()


def installed():
    """Whether ``import cupy`` currently gives the fake."""
    import fake_cupy
    return sys.modules.get("cupy") is fake_cupy


def install():
    """Installs the fake as ``cupy`` (with cupy.cuda, cupy.cuda.runtime, ...)
    and ``cupyx``. Raises RuntimeError when the real CuPy was imported
    already, since arrays of both would then be mixed."""
    import fake_cupy
    from fake_cupy import _cupyx
    current = sys.modules.get("cupy")
    if current is not None and current is not fake_cupy:
        raise RuntimeError(
            "fake_cupy.install(): the real CuPy (%s) was imported already; "
            "install the fake before anything imports cupy (e.g. "
            "CUEMU_FAKE_CUPY=1 with the cuemu pytest plugin)"
            % getattr(current, "__file__", current))
    sys.modules["cupy"] = fake_cupy
    # CuPy's own name, which programs test (xp.__name__ == 'cupy'); the
    # submodules the fake imports lazily come through ALIAS_FINDER.
    fake_cupy.__name__ = "cupy"
    # First: the path finder would find the file in the fake's folder, the
    # parent's path, and run it again as a module of another name.
    if ALIAS_FINDER not in sys.meta_path:
        sys.meta_path.insert(0, ALIAS_FINDER)
    sys.modules["cupy.cuda"] = fake_cupy.cuda
    for sub in ("runtime", "driver", "memory", "compiler", "stream", "nvtx",
                "nvrtc", "profiler", "pinned_memory"):
        sys.modules["cupy.cuda." + sub] = getattr(fake_cupy.cuda, sub)
    sys.modules["cupy.testing"] = fake_cupy.testing
    sys.modules["cupy.exceptions"] = fake_cupy.exceptions
    sys.modules["cupy.cuda.device"] = fake_cupy.cuda.device
    sys.modules["cupy.random"] = fake_cupy.random
    sys.modules["cupy.linalg"] = fake_cupy.linalg
    sys.modules["cupy.fft"] = fake_cupy.fft
    sys.modules["cupy.fft.config"] = fake_cupy.fft.config
    sys.modules["cupy.lib"] = fake_cupy.lib
    sys.modules["cupy.lib.stride_tricks"] = fake_cupy.lib.stride_tricks
    sys.modules["cupy.typing"] = fake_cupy.typing
    from fake_cupy import _internals
    for name, module in _internals.modules().items():
        sys.modules[name] = module
        if name.count(".") == 1 and name.startswith("cupy."):
            setattr(fake_cupy, name.split(".")[1], module)
    fake_cupy.cuda.texture = sys.modules["cupy.cuda.texture"]
    sys.modules["cupyx"] = _cupyx
    sys.modules["cupyx.scipy"] = _cupyx.scipy
    sys.modules["cupyx.jit"] = _cupyx.jit
    sys.modules["cupyx.profiler"] = _cupyx.profiler
    sys.modules["cupyx.time"] = _cupyx.time
    if _cupyx._SCIPY_FINDER not in sys.meta_path:
        sys.meta_path.append(_cupyx._SCIPY_FINDER)


def uninstall():
    """Removes the fake from sys.modules (when it is there)."""
    import fake_cupy
    if sys.modules.get("cupy") is fake_cupy:
        for name in list(sys.modules):
            if name in ("cupy", "cupyx", "cupy_backends") or name.startswith(
                    ("cupy.", "cupyx.", "cupy_backends.")):
                del sys.modules[name]
        from fake_cupy import _cupyx
        if _cupyx._SCIPY_FINDER in sys.meta_path:
            sys.meta_path.remove(_cupyx._SCIPY_FINDER)
        if ALIAS_FINDER in sys.meta_path:
            sys.meta_path.remove(ALIAS_FINDER)
        fake_cupy.__name__ = "fake_cupy"
