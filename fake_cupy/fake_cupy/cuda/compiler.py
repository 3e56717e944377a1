"""cupy.cuda.compiler of the fake CuPy: its error type, and NVRTC itself
(when the toolkit's libnvrtc is present) through compile_using_nvrtc."""
from fake_cupy._errors import CompileException, JitifyException


def compile_using_nvrtc(source, options=(), arch=None, filename="kern.cu",
                        name_expressions=None, log_stream=None,
                        cache_in_memory=False, jitify=False):
    """Compiles `source` with NVRTC, with CuPy's options (the emulated
    device's architecture unless `arch` names one, CuPy's headers and the
    toolkit's include folder); returns the PTX. Raises CompileException
    with NVRTC's log, or RuntimeError without NVRTC."""
    from fake_cupy import _kernel, _nvrtc
    if not _nvrtc.available():
        raise RuntimeError("NVRTC (libnvrtc.so) is not available")
    options = tuple(options)
    if arch is not None:
        options += (f"-arch={arch}",)
    result = _kernel._check_with_nvrtc(source, options,
                                       tuple(name_expressions or ()),
                                       filename, None, False)
    if log_stream is not None:
        log_stream.write(result.log)
    return result.ptx


def compile_with_cache(source, options=(), arch=None, cache_dir=None,
                       extra_source=None, backend="nvrtc", *,
                       enable_cooperative_groups=False, name_expressions=None,
                       log_stream=None, jitify=False):
    """cupy.cuda.compile_with_cache (deprecated since CuPy v10, with CuPy's
    UserWarning): compiles `source` into a module whose get_function(name)
    gives a kernel, launched as f(grid, block, args, shared_mem=0,
    stream=None). The module is a RawModule of the same code and options;
    `arch`, `cache_dir` and `extra_source` change nothing here (the cache is
    libcuemu's)."""
    import warnings
    warnings.warn("cupy.cuda.compile_with_cache has been deprecated in CuPy "
                  "v10, and will be removed in the future. Use "
                  "cupy.RawModule or cupy.RawKernel instead.", UserWarning,
                  stacklevel=2)
    from fake_cupy._kernel import RawModule
    extra = {"jitify": True} if jitify else {}
    module = RawModule(code=source, options=tuple(options), backend=backend,
                       enable_cooperative_groups=enable_cooperative_groups,
                       name_expressions=name_expressions, **extra)
    module.compile(log_stream)
    return module


# The cache settings of CuPy's compiler, which its tests replace: the
# fake's own compile cache is libcuemu's (CUEMU_CACHE_DIR), so these only
# answer as CuPy's do.
_empty_file_preprocess_cache = {}


def _get_bool_env_variable(name, default):
    """CuPy's reading of a boolean environment variable: "1" is True."""
    import os
    val = os.environ.get(name)
    if val is None or len(val) == 0:
        return default
    try:
        return int(val) == 1
    except ValueError:
        return False


def get_cache_dir():
    """CUPY_CACHE_DIR, else ~/.cupy/kernel_cache, as CuPy names it."""
    import os
    return os.environ.get("CUPY_CACHE_DIR", os.path.expanduser(
        "~/.cupy/kernel_cache"))


def _get_arch():
    """The current device's compute capability ("90"), as CuPy gives it."""
    from fake_cupy.cuda import runtime
    props = runtime.getDeviceProperties(runtime.getDevice())
    return f"{props['major']}{props['minor']}"


def _run_cc(cmd, cwd, backend, log_stream=None):
    """Runs a compiler command in `cwd` and returns its output; a failure
    raises CompileException-like errors as CuPy's does (RuntimeError for a
    missing compiler)."""
    import subprocess
    try:
        return subprocess.check_output(cmd, cwd=cwd, stderr=subprocess.STDOUT,
                                       universal_newlines=True)
    except subprocess.CalledProcessError as e:
        raise RuntimeError(f"{backend} failed: {e.output}") from None
    except OSError as e:
        raise RuntimeError(f"cannot run {backend}: {e}") from None


__all__ = ["CompileException", "JitifyException", "compile_using_nvrtc",
           "compile_with_cache",
           "get_cache_dir"]
