/*
 * cuemu_nvrtc_functions.h: NVRTC's C functions, one line each:
 *
 *   CUEMU_NVRTC_FUNCTION(return type, name, (parameters), (arguments))
 *
 * with NVRTC's parameters. nvrtc.h's C view declares each (a C file calls
 * the C symbol), and cuemu's libnvrtc.so.13 (emulator/export/cuemu_libnvrtc.cc,
 * which the toolkit's lib64/libnvrtc.so names) defines each as a call of
 * nvrtc.h's inline function, so that the compile of the library checks the
 * list against the C++ view; tests/driver_c_driver.sh checks that every
 * function of the C++ view is here. nvrtcGetTypeName is C++ only.
 */
#ifdef CUEMU_NVRTC_FUNCTION
CUEMU_NVRTC_FUNCTION(const char *, nvrtcGetErrorString, (nvrtcResult result), (result))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcVersion, (int *major, int *minor), (major, minor))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetNumSupportedArchs, (int *numArchs), (numArchs))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetSupportedArchs, (int *supportedArchs), (supportedArchs))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcCreateProgram, (nvrtcProgram *prog, const char *src, const char *name, int numHeaders, const char *const *headers, const char *const *includeNames), (prog, src, name, numHeaders, headers, includeNames))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcDestroyProgram, (nvrtcProgram *prog), (prog))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcAddNameExpression, (nvrtcProgram prog, const char *const name_expression), (prog, name_expression))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcCompileProgram, (nvrtcProgram prog, int numOptions, const char *const *options), (prog, numOptions, options))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetProgramLogSize, (nvrtcProgram prog, size_t *logSizeRet), (prog, logSizeRet))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetProgramLog, (nvrtcProgram prog, char *log), (prog, log))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetPTXSize, (nvrtcProgram prog, size_t *ptxSizeRet), (prog, ptxSizeRet))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetPTX, (nvrtcProgram prog, char *ptx), (prog, ptx))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetCUBINSize, (nvrtcProgram prog, size_t *cubinSizeRet), (prog, cubinSizeRet))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetCUBIN, (nvrtcProgram prog, char *cubin), (prog, cubin))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetLTOIRSize, (nvrtcProgram prog, size_t *LTOIRSizeRet), (prog, LTOIRSizeRet))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetLTOIR, (nvrtcProgram prog, char *LTOIR), (prog, LTOIR))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetOptiXIRSize, (nvrtcProgram prog, size_t *optixirSizeRet), (prog, optixirSizeRet))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetOptiXIR, (nvrtcProgram prog, char *optixir), (prog, optixir))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetLoweredName, (nvrtcProgram prog, const char *const name_expression, const char **lowered_name), (prog, name_expression, lowered_name))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetPCHHeapSize, (size_t *ret), (ret))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcSetPCHHeapSize, (size_t size), (size))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetPCHCreateStatus, (nvrtcProgram prog), (prog))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcGetPCHHeapSizeRequired, (nvrtcProgram prog, size_t *size), (prog, size))
CUEMU_NVRTC_FUNCTION(nvrtcResult, nvrtcSetFlowCallback, (nvrtcProgram prog, int (*callback)(void *, void *), void *payload), (prog, callback, payload))
#endif
