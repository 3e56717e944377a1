/*
 * cuemu_parity_nvrtc.c: the NVRTC compile leg of the parity runner. NVRTC
 * (libnvrtc.so) is loaded with dlopen on first use; the few of its types
 * that are needed are declared here, so no CUDA header is needed to build.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuemu_parity_gpu.h"
#include "cuemu_parity_text.h"

/* NVRTC's own declarations (nvrtc.h), as far as they are used here. */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
#define NVRTC_SUCCESS 0
#define NVRTC_ERROR_OUT_OF_MEMORY 1

/* The architecture used when no device says otherwise. */
#define DEFAULT_ARCH 90

static struct {
  nvrtcResult (*Version)(int *, int *);
  nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                               const char *const *, const char *const *);
  nvrtcResult (*AddNameExpression)(nvrtcProgram, const char *const);
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetPTX)(nvrtcProgram, char *);
  nvrtcResult (*GetLoweredName)(nvrtcProgram, const char *const, const char **);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *);
  const char *(*GetErrorString)(nvrtcResult);
  int major, minor; /* NVRTC's version */
  char *failure;    /* why it could not be loaded; NULL once loaded */
} api;

static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_api(void) {
  static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13",
                                      "libnvrtc.so.12", "libnvrtc.so.11.2",
                                      NULL};
  char *why = NULL;
  void *lib = cuemu__parity_dlopen("CUEMU_NVRTC_LIBRARY", names, 1, &why);
  if (!lib) {
    api.failure = why ? why : strdup("libnvrtc.so could not be loaded");
    return;
  }
  const cuemu__parity_symbol symbols[] = {
      {{"nvrtcVersion", NULL}, &api.Version, 0},
      {{"nvrtcCreateProgram", NULL}, &api.CreateProgram, 0},
      {{"nvrtcAddNameExpression", NULL}, &api.AddNameExpression, 0},
      {{"nvrtcCompileProgram", NULL}, &api.CompileProgram, 0},
      {{"nvrtcGetProgramLogSize", NULL}, &api.GetProgramLogSize, 0},
      {{"nvrtcGetProgramLog", NULL}, &api.GetProgramLog, 0},
      {{"nvrtcGetPTXSize", NULL}, &api.GetPTXSize, 0},
      {{"nvrtcGetPTX", NULL}, &api.GetPTX, 0},
      {{"nvrtcGetLoweredName", NULL}, &api.GetLoweredName, 0},
      {{"nvrtcDestroyProgram", NULL}, &api.DestroyProgram, 0},
      {{"nvrtcGetErrorString", NULL}, &api.GetErrorString, 0},
  };
  const char *missing = NULL;
  if (!cuemu__parity_dlsym_all(
          lib, symbols, (int)(sizeof symbols / sizeof symbols[0]), &missing)) {
    const char *format = "libnvrtc.so lacks %s (NVRTC older than 11.2?)";
    size_t n = strlen(format) + strlen(missing) + 1;
    api.failure = malloc(n);
    if (api.failure)
      snprintf(api.failure, n, format, missing);
    return;
  }
  if (api.Version(&api.major, &api.minor) != NVRTC_SUCCESS)
    api.major = api.minor = 0;
}

int cuemu__parity_nvrtc_version(const char **why) {
  pthread_once(&api_once, load_api);
  if (api.failure) {
    if (why)
      *why = api.failure;
    return 0;
  }
  return api.major * 1000 + api.minor * 10;
}


/* Reads the whole source file at `path`. */
static cuemu_status read_source(const char *path, char **text, char **log) {
  *text = cuemu__parity_read_file(path, NULL);
  if (*text)
    return CUEMU_SUCCESS;
  if (errno == ENOMEM)
    return CUEMU_OUT_OF_MEMORY;
  if (log)
    *log = cuemu__parity_format("%s: cannot read: %s", path, strerror(errno));
  return CUEMU_IO_ERROR;
}

/* The folder part of `path` ("." when it has none), malloc()ed. */
static char *folder_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  if (slash == path)
    return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

/* The options NVRTC gets: the case's own, then the source's folder, the
 * CUDA include folder (and its cccl/), the architecture and the dialect.
 * Every string is malloc()ed; *count receives their number. */
static char **build_options(const char *source_path, const char *const *options,
                            int noptions, int arch, int *count) {
  char **list = calloc((size_t)noptions + 5, sizeof *list);
  if (!list)
    return NULL;
  int n = 0;
  int ok = 1;
  for (int i = 0; i < noptions; ++i)
    ok &= (list[n++] = strdup(options[i])) != NULL;
  char *folder = folder_of(source_path);
  ok &= folder && (list[n++] = cuemu__parity_format("-I%s", folder)) != NULL;
  free(folder);
  char include[4096];
  struct stat st;
  snprintf(include, sizeof include, "%s/include", cuemu__parity_cuda_home());
  if (stat(include, &st) != 0 || !S_ISDIR(st.st_mode))
    snprintf(include, sizeof include, "/usr/local/cuda/include");
  if (stat(include, &st) == 0 && S_ISDIR(st.st_mode)) {
    ok &= (list[n++] = cuemu__parity_format("-I%s", include)) != NULL;
    /* CUDA 13 keeps libcu++ and CUB (which cooperative_groups.h uses) in
     * include/cccl; nvcc searches it too. */
    char cccl[4200];
    snprintf(cccl, sizeof cccl, "%s/cccl", include);
    if (stat(cccl, &st) == 0 && S_ISDIR(st.st_mode))
      ok &= (list[n++] = cuemu__parity_format("-I%s", cccl)) != NULL;
  }
  ok &=
      (list[n++] = cuemu__parity_format("--gpu-architecture=compute_%d", arch)) != NULL;
  ok &= (list[n++] = strdup("-std=c++17")) != NULL;
  *count = n;
  if (!ok) {
    for (int i = 0; i < n; ++i)
      free(list[i]);
    free(list);
    return NULL;
  }
  return list;
}

/* NVRTC's log of the program, malloc()ed (an empty string if none). */
static char *program_log(nvrtcProgram program) {
  size_t size = 0;
  if (api.GetProgramLogSize(program, &size) != NVRTC_SUCCESS || size == 0)
    return strdup("");
  char *text = malloc(size + 1);
  if (!text)
    return NULL;
  if (api.GetProgramLog(program, text) != NVRTC_SUCCESS)
    text[0] = '\0';
  text[size] = '\0';
  return text;
}

/* Fills *log with what went wrong in NVRTC call `call` and NVRTC's log. */
static void report(char **log, const char *source_path, const char *kernel,
                   int arch, const char *call, nvrtcResult result,
                   nvrtcProgram program) {
  if (!log)
    return;
  char *nvrtc_log = program ? program_log(program) : NULL;
  *log = cuemu__parity_format(
      "NVRTC %d.%d could not compile %s (kernel %s, compute_%d): %s "
      "returned %s%s%s",
      api.major, api.minor, source_path, kernel, arch, call,
      api.GetErrorString(result), nvrtc_log && *nvrtc_log ? "\n" : "",
      nvrtc_log ? nvrtc_log : "");
  free(nvrtc_log);
}

cuemu_status cuemu__parity_nvrtc_compile(const char *source_path,
                                         const char *kernel,
                                         const char *const *options,
                                         int noptions, int arch,
                                         cuemu__parity_ptx *out, char **log) {
  if (log)
    *log = NULL;
  if (!source_path || !kernel || !out || noptions < 0 ||
      (noptions > 0 && !options) || arch < 0)
    return CUEMU_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  const char *why = NULL;
  if (!cuemu__parity_nvrtc_version(&why)) {
    if (log)
      *log = cuemu__parity_format("NVRTC is not available: %s", why);
    return CUEMU_NVRTC;
  }
  if (arch == 0)
    arch = cuemu__parity_gpu_arch();
  if (arch == 0)
    arch = DEFAULT_ARCH;

  char *source = NULL;
  cuemu_status status = read_source(source_path, &source, log);
  if (status != CUEMU_SUCCESS)
    return status;
  int count = 0;
  char **list = build_options(source_path, options, noptions, arch, &count);
  if (!list) {
    free(source);
    return CUEMU_OUT_OF_MEMORY;
  }

  nvrtcProgram program = NULL;
  nvrtcResult result =
      api.CreateProgram(&program, source, source_path, 0, NULL, NULL);
  const char *call = "nvrtcCreateProgram";
  if (result == NVRTC_SUCCESS) {
    call = "nvrtcAddNameExpression";
    result = api.AddNameExpression(program, kernel);
  }
  if (result == NVRTC_SUCCESS) {
    call = "nvrtcCompileProgram";
    result = api.CompileProgram(program, count, (const char *const *)list);
  }
  const char *lowered = NULL;
  if (result == NVRTC_SUCCESS) {
    call = "nvrtcGetLoweredName";
    result = api.GetLoweredName(program, kernel, &lowered);
  }
  size_t size = 0;
  if (result == NVRTC_SUCCESS) {
    call = "nvrtcGetPTXSize";
    result = api.GetPTXSize(program, &size);
  }
  if (result == NVRTC_SUCCESS) {
    out->ptx = malloc(size + 1);
    out->lowered_name = strdup(lowered);
    if (!out->ptx || !out->lowered_name) {
      status = CUEMU_OUT_OF_MEMORY;
    } else {
      call = "nvrtcGetPTX";
      result = api.GetPTX(program, out->ptx);
      out->ptx[size] = '\0';
      out->size = size;
      out->arch = arch;
    }
  }
  if (result == NVRTC_ERROR_OUT_OF_MEMORY)
    status = CUEMU_OUT_OF_MEMORY;
  else if (result != NVRTC_SUCCESS)
    status = CUEMU_NVRTC;
  if (result != NVRTC_SUCCESS)
    report(log, source_path, kernel, arch, call, result, program);
  if (status != CUEMU_SUCCESS)
    cuemu__parity_nvrtc_free(out);
  if (program)
    api.DestroyProgram(&program);
  for (int i = 0; i < count; ++i)
    free(list[i]);
  free(list);
  free(source);
  return status;
}

void cuemu__parity_nvrtc_free(cuemu__parity_ptx *ptx) {
  if (!ptx)
    return;
  free(ptx->ptx);
  free(ptx->lowered_name);
  memset(ptx, 0, sizeof *ptx);
}
