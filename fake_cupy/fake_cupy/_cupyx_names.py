"""The public names of CuPy's cupyx and of the cupyx.scipy modules the fake
provides, in two releases; _cupy_names.NAMES takes them in, so that
_cupy_names.check refuses any other name with CuPy's AttributeError.

Each *_13 list is dir() of the module of CuPy 13.6.0 (the cupy-cuda12x
wheel, imported on NumPy 2.4 without a GPU), names beginning with an
underscore left out, plus the names the module's own __getattr__ serves
(cupyx.lapack, and cupyx.scipy's submodules, which CuPy 14 imports on
first use); the *_14_ADDED lists are what CuPy 14.2.0's modules have beyond
them (`from __future__ import annotations` and cupyx.scipy.spatial.distance's
`import cupy` aside). CuPy 14 dropped cupyx.scipy.linalg's tri, tril and
triu, kept here as CuPy 13 has them.

The fake delegates these modules to SciPy's, which hold far more: a
program that tries `from cupyx.scipy.special import factorial` and falls
back to NumPy on ImportError took the CuPy path on the fake and the NumPy
path on a GPU. tests/python/test_cupy_namespace.py compares the fake's
modules with these lists.
"""


def _names(text):
    return frozenset(text.split())


CUPYX_13 = _names("""
DeviceSynchronized GeneralizedUFunc allow_synchronize empty_like_pinned
empty_pinned errstate get_runtime_info geterr jit lapack linalg optimizing
profiler rsqrt scatter_add scatter_max scatter_min scipy seterr time
zeros_like_pinned zeros_pinned
""")

CUPYX_14_ADDED = _names("""
cusparse
""")

SPECIAL_13 = _names("""
bdtr bdtrc bdtri beta betainc betaincinv betaln binom boxcox boxcox1p btdtr
btdtri cbrt chdtr chdtrc chdtri cosdg cosm1 cotdg digamma ellipj ellipk
ellipkm1 entr erf erfc erfcinv erfcx erfinv exp1 exp10 exp2 expi expit expm1
expn exprel fdtr fdtrc fdtri gamma gammainc gammaincc gammainccinv
gammaincinv gammaln gammasgn gdtr gdtrc huber i0 i0e i1 i1e inv_boxcox
inv_boxcox1p j0 j1 k0 k0e k1 k1e kl_div log1p log_expit log_ndtr log_softmax
loggamma logit logsumexp lpmv multigammaln nbdtr nbdtrc nbdtri ndtr ndtri
pdtr pdtrc pdtri poch polygamma pseudo_huber psi radian rel_entr rgamma
round sinc sindg softmax sph_harm spherical_yn tandg xlog1py xlogy y0 y1 yn
zeta zetac
""")

SPECIAL_14_ADDED = _names("""
ellipeinc ellipkinc lambertw shichi sici sph_harm_y wright_bessel
""")

SIGNAL_13 = _names("""
BadCoefficients CZT StateSpace TransferFunction ZerosPolesGain ZoomFFT
abcd_normalize argrelextrema argrelmax argrelmin band_stop_obj bilinear
bilinear_zpk bode buttap butter buttord cheb1ap cheb1ord cheb2ap cheb2ord
cheby1 cheby2 check_COLA check_NOLA chirp choose_conv_method coherence
cont2discrete convolve convolve2d correlate correlate2d correlation_lags csd
cspline1d cspline1d_eval cspline2d cwt czt czt_points dbode decimate
deconvolve detrend dfreqresp dimpulse dlsim dlti dstep ellip ellipap
ellipord fftconvolve filtfilt find_peaks findfreqs firls firwin firwin2
freqresp freqs freqs_zpk freqz freqz_zpk gammatone gauss_spline gausspulse
get_window group_delay hilbert hilbert2 iircomb iirdesign iirfilter iirnotch
iirpeak impulse invres invresz istft kaiser_atten kaiser_beta kaiserord
lfilter lfilter_zi lfiltic lombscargle lp2bp lp2bp_zpk lp2bs lp2bs_zpk lp2hp
lp2hp_zpk lp2lp lp2lp_zpk lsim lti max_len_seq medfilt medfilt2d
minimum_phase morlet morlet2 normalize oaconvolve order_filter
peak_prominences peak_widths periodogram place_poles qmf qspline1d
qspline1d_eval qspline2d resample resample_poly residue residuez ricker
savgol_coeffs savgol_filter sawtooth sepfir2d sos2tf sos2zpk sosfilt
sosfilt_zi sosfiltfilt sosfreqz spectrogram spline_filter square ss2tf
ss2zpk step stft symiirorder1 symiirorder2 tf2sos tf2ss tf2zpk unique_roots
unit_impulse upfirdn vectorstrength welch wiener windows zoom_fft zpk2sos
zpk2ss zpk2tf
""")

SIGNAL_14_ADDED = _names("""
freqz_sos sweep_poly
""")

SIGNAL_WINDOWS_13 = _names("""
barthann bartlett blackman blackmanharris bohman boxcar chebwin cosine
exponential flattop gaussian general_cosine general_gaussian general_hamming
get_window hamming hann kaiser nuttall parzen taylor triang tukey
""")

SIGNAL_WINDOWS_14_ADDED = _names("""
kaiser_bessel_derived lanczos
""")

NDIMAGE_13 = _names("""
affine_transform binary_closing binary_dilation binary_erosion
binary_fill_holes binary_hit_or_miss binary_opening binary_propagation
black_tophat center_of_mass convolve convolve1d correlate correlate1d
distance_transform_edt extrema fourier_ellipsoid fourier_gaussian
fourier_shift fourier_uniform gaussian_filter gaussian_filter1d
gaussian_gradient_magnitude gaussian_laplace generate_binary_structure
generic_filter generic_filter1d generic_gradient_magnitude generic_laplace
grey_closing grey_dilation grey_erosion grey_opening histogram
iterate_structure label labeled_comprehension laplace map_coordinates
maximum maximum_filter maximum_filter1d maximum_position mean median
median_filter minimum minimum_filter minimum_filter1d minimum_position
morphological_gradient morphological_laplace percentile_filter prewitt
rank_filter rotate shift sobel spline_filter spline_filter1d
standard_deviation sum sum_labels uniform_filter uniform_filter1d
value_indices variance white_tophat zoom
""")

NDIMAGE_14_ADDED = _names("""
find_objects
""")

LINALG_13 = _names("""
bandwidth block_diag circulant companion convolution_matrix dft expm fiedler
fiedler_companion hadamard hankel helmert hilbert khatri_rao kron leslie lu
lu_factor lu_solve solve_triangular toeplitz tri tril triu
""")

LINALG_14_ADDED = frozenset()

# With csgraph, the submodule that `import cupyx.scipy.sparse.csgraph` sets.
SPARSE_13 = _names("""
SparseEfficiencyWarning SparseWarning bmat coo_matrix csc_matrix csgraph csr_matrix
dia_matrix diags eye find hstack identity issparse isspmatrix isspmatrix_coo
isspmatrix_csc isspmatrix_csr isspmatrix_dia kron kronsum linalg rand random
spdiags spmatrix tril triu vstack
""")

SPARSE_14_ADDED = _names("""
block_array block_diag coo_array csc_array csr_array dia_array diags_array
eye_array get_index_dtype matrix_transpose permute_dims random_array
safely_cast_index_arrays sparray swapaxes
""")

SPARSE_LINALG_13 = _names("""
LinearOperator SuperLU aslinearoperator cg cgs eigsh factorized gmres lobpcg
lsmr lsqr minres norm spilu splu spsolve spsolve_triangular svds
""")

SPARSE_LINALG_14_ADDED = _names("""
bicgstab matrix_power
""")

SPARSE_CSGRAPH_13 = _names("""
connected_components
""")

SPARSE_CSGRAPH_14_ADDED = frozenset()

FFT_13 = _names("""
dct dctn dst dstn fft fft2 fftfreq fftn fftshift fht get_fft_plan hfft hfft2
hfftn idct idctn idst idstn ifft ifft2 ifftn ifftshift ifht ihfft ihfft2
ihfftn irfft irfft2 irfftn next_fast_len rfft rfft2 rfftfreq rfftn
""")

FFT_14_ADDED = frozenset()

FFTPACK_13 = _names("""
fft fft2 fftn get_fft_plan ifft ifft2 ifftn irfft rfft
""")

FFTPACK_14_ADDED = frozenset()

INTERPOLATE_13 = _names("""
Akima1DInterpolator BPoly BSpline BarycentricInterpolator CubicHermiteSpline
KroghInterpolator NdPPoly PPoly PchipInterpolator RBFInterpolator
RegularGridInterpolator barycentric_interpolate interpn krogh_interpolate
make_interp_spline pchip pchip_interpolate splantider splder
""")

INTERPOLATE_14_ADDED = _names("""
CloughTocher2DInterpolator CubicSpline InterpolatedUnivariateSpline
LSQUnivariateSpline LinearNDInterpolator NdBSpline NearestNDInterpolator
UnivariateSpline interp1d make_lsq_spline
""")

SPATIAL_13 = _names("""
distance distance_matrix
""")

SPATIAL_14_ADDED = _names("""
Delaunay KDTree delaunay_2d
""")

SPATIAL_DISTANCE_13 = _names("""
MetricInfo canberra cdist chebyshev check_soft_dependencies cityblock
correlation cosine cuvs_available distance_matrix euclidean hamming
hellinger jensenshannon kl_divergence minkowski pdist pylibraft_available
russellrao sqeuclidean
""")

SPATIAL_DISTANCE_14_ADDED = frozenset()

STATS_13 = _names("""
boxcox_llf entropy trim_mean zmap zscore
""")

STATS_14_ADDED = frozenset()

# cupyx/scipy/__init__.py: get_array_module and the submodules.
SCIPY_13 = _names("""
fft fftpack get_array_module interpolate linalg ndimage signal sparse
spatial special stats
""")

SCIPY_14_ADDED = frozenset()

NAMES = {
    "cupyx": CUPYX_13 | CUPYX_14_ADDED,
    "cupyx.scipy": SCIPY_13 | SCIPY_14_ADDED,
    "cupyx.scipy.special": SPECIAL_13 | SPECIAL_14_ADDED,
    "cupyx.scipy.signal": SIGNAL_13 | SIGNAL_14_ADDED,
    "cupyx.scipy.signal.windows": SIGNAL_WINDOWS_13 | SIGNAL_WINDOWS_14_ADDED,
    "cupyx.scipy.ndimage": NDIMAGE_13 | NDIMAGE_14_ADDED,
    "cupyx.scipy.linalg": LINALG_13 | LINALG_14_ADDED,
    "cupyx.scipy.sparse": SPARSE_13 | SPARSE_14_ADDED,
    "cupyx.scipy.sparse.linalg": SPARSE_LINALG_13 | SPARSE_LINALG_14_ADDED,
    "cupyx.scipy.sparse.csgraph": SPARSE_CSGRAPH_13 | SPARSE_CSGRAPH_14_ADDED,
    "cupyx.scipy.fft": FFT_13 | FFT_14_ADDED,
    "cupyx.scipy.fftpack": FFTPACK_13 | FFTPACK_14_ADDED,
    "cupyx.scipy.interpolate": INTERPOLATE_13 | INTERPOLATE_14_ADDED,
    "cupyx.scipy.spatial": SPATIAL_13 | SPATIAL_14_ADDED,
    "cupyx.scipy.spatial.distance": SPATIAL_DISTANCE_13 | SPATIAL_DISTANCE_14_ADDED,
    "cupyx.scipy.stats": STATS_13 | STATS_14_ADDED,
}
