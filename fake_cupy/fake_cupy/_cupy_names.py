"""The public names of CuPy's modules cupy, cupy.linalg, cupy.fft and
cupy.random in two releases (cupyx's in _cupyx_names.py), and the refusal
of any other name.

Each list is dir() of the module of CuPy 13.6.0 (the cupy-cuda12x wheel,
imported on NumPy 2.4 without a GPU), names beginning with an underscore
left out, plus the names the module's own __getattr__ serves
(cupy.random.Generator); the *_14_ADDED lists are what CuPy 14.2.0's
modules have beyond them (its `from __future__ import annotations` aside).
CuPy 14 removed only cupy.sparse, kept here as CuPy 13 has it.

The fake follows CuPy 13 and keeps CuPy 14's additions, as it takes CuPy
14's spellings elsewhere (rtol=, bicgstab): a NumPy name that neither
release has (frompyfunc, einsum_path, geomspace, insert, vecdot,
numpy.linalg's multi_dot, ...) raises CuPy's AttributeError, where the fake
gave NumPy's answer and the code failed only on a GPU.
tests/python/test_cupy_namespace.py compares the fake's modules with them.
"""

from fake_cupy import _cupyx_names


def _names(text):
    return frozenset(text.split())


CUPY_13 = _names("""
AxisError ComplexWarning DataSource ElementwiseKernel Inf Infinity
ModuleDeprecationWarning NAN NINF NZERO NaN PINF PZERO RankWarning RawKernel
RawModule ReductionKernel TooHardError VisibleDeprecationWarning abs
absolute add all allclose alltrue amax amin angle any append
apply_along_axis arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh
argmax argmin argpartition argsort argwhere around array array2string
array_equal array_equiv array_repr array_split array_str asanyarray asarray
asarray_chkfinite ascontiguousarray asfarray asfortranarray asnumpy
atleast_1d atleast_2d atleast_3d average bartlett base_repr binary_repr
bincount bitwise_and bitwise_not bitwise_or bitwise_xor blackman bool_
broadcast broadcast_arrays broadcast_shapes broadcast_to byte byte_bounds c_
can_cast cbrt cdouble ceil cfloat choose clear_memo clip column_stack
common_type complex128 complex64 complex_ complexfloating compress
concatenate conj conjugate convolve copy copysign copyto corrcoef correlate
cos cosh count_nonzero cov cross csingle cuda cumprod cumproduct cumsum
deg2rad degrees delete diag diag_indices diag_indices_from diagflat diagonal
diff digitize disable_experimental_feature_warning disp divide divmod dot
double dsplit dstack dtype e ediff1d einsum empty empty_like equal
euler_gamma exceptions exp exp2 expand_dims expm1 extract eye fabs fft
fill_diagonal find_common_type finfo fix flatiter flatnonzero flip fliplr
flipud float16 float32 float64 float_ float_power floating floor
floor_divide fmax fmin fmod format_float_positional format_float_scientific
format_parser frexp fromDlpack from_dlpack frombuffer fromfile fromfunction
fromiter fromstring full full_like fuse gcd generic genfromtxt
get_array_module get_array_wrap get_default_memory_pool
get_default_pinned_memory_pool get_printoptions gradient greater
greater_equal half hamming hanning heaviside histogram histogram2d
histogramdd hsplit hstack hypot i0 identity iinfo imag in1d index_exp
indices inexact inf infty inner int16 int32 int64 int8 int_ intc integer
interp intersect1d intp invert is_available isclose iscomplex iscomplexobj
isfinite isfortran isin isinf isnan isneginf isposinf isreal isrealobj
isscalar issctype issubclass_ issubdtype issubsctype iterable ix_ kaiser
kron lcm ldexp left_shift less less_equal lexsort lib linalg linspace load
loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not
logical_or logical_xor logspace longlong mask_indices matmul max maximum
may_share_memory mean median memoize meshgrid mgrid min min_scalar_type
minimum mintypecode mod modf moveaxis msort multiply nan nan_to_num
nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin
nanprod nanstd nansum nanvar ndarray ndim ndindex negative newaxis nextafter
nonzero not_equal number obj2sctype ogrid ones ones_like outer packbits pad
partition percentile pi piecewise place poly poly1d polyadd polyfit polymul
polynomial polysub polyval positive power printoptions prod product
promote_types ptp put putmask quantile r_ rad2deg radians random ravel
ravel_multi_index real real_if_close reciprocal remainder repeat require
reshape resize result_type right_shift rint roll rollaxis roots rot90 round
round_ row_stack s_ safe_eval save savetxt savez savez_compressed
sctype2char searchsorted select set_printoptions set_string_function
setdiff1d setxor1d shape shares_memory short show_config sign signbit
signedinteger sin sinc single singlecomplex sinh size sometrue sort
sort_complex sparse split sqrt square squeeze stack std subtract sum
swapaxes take take_along_axis tan tanh tensordot testing tile trace
transpose trapz tri tril tril_indices tril_indices_from trim_zeros triu
triu_indices triu_indices_from true_divide trunc typename typing ubyte ufunc
uint uint16 uint32 uint64 uint8 uintc uintp ulonglong union1d unique
unpackbits unravel_index unsignedinteger unwrap ushort vander var vdot
vectorize vsplit vstack where who zeros zeros_like
""")

CUPY_14_ADDED = _names("""
acos acosh apply_over_axes asin asinh astype atan atan2 atanh bitwise_count
bitwise_invert bitwise_left_shift bitwise_right_shift bool concat
cumulative_prod cumulative_sum isdtype long make_aligned_dtype
matrix_transpose permute_dims pow put_along_axis trapezoid ulong unique_all
unique_counts unique_inverse unique_values
""")

LINALG_13 = _names("""
LinAlgError cholesky det eigh eigvalsh inv lstsq matrix_power matrix_rank
norm pinv qr slogdet solve svd tensorinv tensorsolve
""")

LINALG_14_ADDED = _names("""
cond cross eig eigvals matmul matrix_transpose
""")

FFT_13 = _names("""
config fft fft2 fftfreq fftn fftshift hfft ifft ifft2 ifftn ifftshift ihfft
irfft irfft2 irfftn rfft rfft2 rfftfreq rfftn
""")

FFT_14_ADDED = frozenset()

RANDOM_13 = _names("""
BitGenerator Generator MRG32k3a Philox4x3210 RandomState XORWOW beta
binomial bytes chisquare choice default_rng dirichlet exponential f gamma
geometric get_random_state gumbel hypergeometric laplace logistic lognormal
logseries multinomial multivariate_normal negative_binomial
noncentral_chisquare noncentral_f normal pareto permutation poisson power
rand randint randn random random_integers random_sample ranf rayleigh
reset_states sample seed set_random_state shuffle standard_cauchy
standard_exponential standard_gamma standard_normal standard_t triangular
uniform vonmises wald weibull zipf
""")

RANDOM_14_ADDED = frozenset()

NAMES = {
    "cupy": CUPY_13 | CUPY_14_ADDED,
    "cupy.linalg": LINALG_13 | LINALG_14_ADDED,
    "cupy.fft": FFT_13 | FFT_14_ADDED,
    "cupy.random": RANDOM_13 | RANDOM_14_ADDED,
    # cupyx and its cupyx.scipy modules (_cupyx_names.py).
    **_cupyx_names.NAMES,
}


def check(module, name, hint=None):
    """Raises CuPy's AttributeError for `name` of `module` ('cupy',
    'cupy.linalg', ...) unless a CuPy release has it; `hint`, where given,
    follows CuPy's message in parentheses."""
    if name in NAMES[module]:
        return
    message = f"module {module!r} has no attribute {name!r}"
    raise AttributeError(f"{message} ({hint})" if hint else message)
