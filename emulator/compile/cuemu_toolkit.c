/*
 * cuemu_toolkit.c: finding the toolkit's CCCL, and telling when a unit
 * needs clang++ (see cuemu_toolkit.h).
 */
#define _GNU_SOURCE
#include "cuemu_toolkit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Writes ROOT/include/cccl into out; 1 when it holds CCCL. */
static int cccl_under(const char *root, char *out, size_t cap) {
  char probe[PATH_MAX];
  if (!root || !*root)
    return 0;
  if ((size_t)snprintf(out, cap, "%s/include/cccl", root) >= cap)
    return 0;
  snprintf(probe, sizeof probe, "%s/cub", out);
  if (is_dir(probe))
    return 1;
  snprintf(probe, sizeof probe, "%s/cuda/std", out);
  return is_dir(probe);
}

/* What a toolkit folder is looked for: writes the folder found under
 * ROOT into out and returns 1 when ROOT has it. */
typedef int (*toolkit_part)(const char *root, char *out, size_t cap);

/* 1 when `real`, the real path of an nvcc, is cuemu-nvcc or cuemu-cc (a
 * link named nvcc: cuemu's toolkit's bin/nvcc, or one installed as nvcc),
 * by its file's name: a real toolkit in a folder whose path holds "cuemu"
 * (/opt/cuemu-ci/cuda) is still one. */
static int is_cuemu_nvcc(const char *real) {
  const char *slash = strrchr(real, '/');
  const char *base = slash ? slash + 1 : real;
  return strncmp(base, "cuemu-", 6) == 0;
}

/* The toolkit above the first `nvcc` of $PATH (TOOLKIT/bin/nvcc). */
static int next_to_nvcc(toolkit_part under, char *out, size_t cap) {
  const char *path = getenv("PATH");
  char dir[PATH_MAX], nvcc[PATH_MAX], real[PATH_MAX];
  while (path && *path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && n < sizeof dir) {
      memcpy(dir, path, n);
      dir[n] = '\0';
      /* cuemu-nvcc installed as `nvcc` is not a toolkit. */
      if ((size_t)snprintf(nvcc, sizeof nvcc, "%s/nvcc", dir) < sizeof nvcc &&
          realpath(nvcc, real) && !is_cuemu_nvcc(real)) {
        char *slash = strrchr(real, '/');
        if (slash) {
          *slash = '\0';
          slash = strrchr(real, '/');
          if (slash) {
            *slash = '\0';
            return under(real, out, cap);
          }
        }
      }
    }
    path += n;
    if (*path == ':')
      path++;
  }
  return 0;
}

/* 1 when ROOT is cuemu's own toolkit folder (cuemu-toolkit, whose
 * bin/nvcc is cuemu-nvcc): it has the shims, not CCCL, so a Makefile's
 * CUDA_HOME or CUDA_PATH naming it, as the README tells, leaves the
 * search for CCCL to the places after it. */
static int cuemu_own_toolkit(const char *root) {
  char nvcc[PATH_MAX], real[PATH_MAX];
  return (size_t)snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", root) <
             sizeof nvcc &&
         realpath(nvcc, real) && is_cuemu_nvcc(real);
}

int cuemu__toolkit_cccl(const char *cuda_path, char *out, size_t cap) {
  if (cuda_path && *cuda_path && !cuemu_own_toolkit(cuda_path))
    return cccl_under(cuda_path, out, cap);
  const char *env[] = {"CUDA_HOME", "CUDA_PATH", NULL};
  for (int i = 0; env[i]; ++i) {
    const char *v = getenv(env[i]);
    if (v && *v && !cuemu_own_toolkit(v))
      return cccl_under(v, out, cap);
  }
  if (next_to_nvcc(cccl_under, out, cap))
    return 1;
  return cccl_under("/usr/local/cuda", out, cap);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Writes ROOT/include into out; 1 when it has NVIDIA's runtime headers,
 * which compile as C (cuemu's toolkit folder has the shims there, and no
 * crt/host_config.h). */
static int c_headers_under(const char *root, char *out, size_t cap) {
  char probe[PATH_MAX];
  if (!root || !*root)
    return 0;
  if ((size_t)snprintf(out, cap, "%s/include", root) >= cap)
    return 0;
  snprintf(probe, sizeof probe, "%s/cuda_runtime_api.h", out);
  if (!is_file(probe))
    return 0;
  snprintf(probe, sizeof probe, "%s/crt/host_config.h", out);
  return is_file(probe);
}

int cuemu__toolkit_c_headers(const char *cuda_path, char *out, size_t cap) {
  if (cuda_path && *cuda_path && c_headers_under(cuda_path, out, cap))
    return 1;
  const char *env[] = {"CUDA_HOME", "CUDA_PATH", NULL};
  for (int i = 0; env[i]; ++i) {
    const char *v = getenv(env[i]);
    if (v && *v && c_headers_under(v, out, cap))
      return 1;
  }
  return next_to_nvcc(c_headers_under, out, cap) ||
         c_headers_under("/usr/local/cuda", out, cap);
}

/* The folder an include option names: the value of "-Idir", "-isystem
 * dir" (the word "dir" on its own), ...; NULL for other words. */
static const char *include_option_folder(const char *word) {
  static const char *const flags[] = {"-isystem", "-idirafter", "-iquote",
                                      "-I", NULL};
  if (word[0] != '-')
    return word;
  for (int i = 0; flags[i]; ++i) {
    size_t n = strlen(flags[i]);
    if (strncmp(word, flags[i], n) == 0 && word[n])
      return word + n;
  }
  return NULL;
}

int cuemu__toolkit_include(const char *cuda_path, int argc,
                           const char *const *argv, char *out, size_t cap) {
  char real[PATH_MAX], named[PATH_MAX];
  if (!cuemu__toolkit_c_headers(cuda_path, out, cap) || !realpath(out, real))
    return 0;
  for (int i = 0; i < argc; ++i) {
    const char *dir = argv[i] ? include_option_folder(argv[i]) : NULL;
    if (dir && realpath(dir, named) && strcmp(named, real) == 0)
      return 0;
  }
  return 1;
}

enum cuemu_cccl_source cuemu__cccl_headers(const char *cuda_path, char *out,
                                           size_t cap) {
  char probe[PATH_MAX];
  if (cap == 0)
    return CUEMU_CCCL_NONE;
  if (cuemu__toolkit_cccl(cuda_path, out, cap))
    return CUEMU_CCCL_TOOLKIT;
  out[0] = '\0';
  const char *debian = getenv("CUEMU_DEBIAN_CCCL_DIR");
  if (!debian || !*debian)
    debian = "/usr/include";
  snprintf(probe, sizeof probe, "%s/cub/cub.cuh", debian);
  int found = is_file(probe);
  snprintf(probe, sizeof probe, "%s/thrust/version.h", debian);
  found = found || is_file(probe);
  if (!found)
    return CUEMU_CCCL_NONE;
  if (strcmp(debian, "/usr/include") != 0 &&
      (size_t)snprintf(out, cap, "%s", debian) >= cap)
    return CUEMU_CCCL_NONE;
  return CUEMU_CCCL_DEBIAN;
}

int cuemu__source_includes_cccl(const char *text, size_t size) {
  static const char *const heads[] = {"cub/", "thrust/", "cuda/", "nv/", NULL};
  for (size_t i = 0; i < size; ++i) {
    if (text[i] != '#' || (i > 0 && text[i - 1] != '\n' && text[i - 1] != ' ' &&
                           text[i - 1] != '\t'))
      continue;
    size_t k = i + 1;
    while (k < size && (text[k] == ' ' || text[k] == '\t'))
      k++;
    if (size - k < 8 || strncmp(text + k, "include", 7) != 0)
      continue;
    k += 7;
    while (k < size && (text[k] == ' ' || text[k] == '\t'))
      k++;
    if (k >= size || text[k] != '<')
      continue;
    for (int h = 0; heads[h]; ++h)
      if (size - k - 1 >= strlen(heads[h]) &&
          strncmp(text + k + 1, heads[h], strlen(heads[h])) == 0)
        return 1;
  }
  return 0;
}

int cuemu__deps_need_clang(const char *depfile) {
  FILE *f = fopen(depfile, "re");
  char line[PATH_MAX + 64];
  int found = 0;
  if (!f)
    return 0;
  while (!found && fgets(line, sizeof line, f))
    found = strstr(line, "/cub/") != NULL || strstr(line, "/thrust/") != NULL ||
            strstr(line, "/cutlass/cutlass.h") != NULL ||
            strstr(line, "/cute/config.hpp") != NULL;
  fclose(f);
  return found;
}

const char *cuemu__deps_cccl_library(const char *depfile) {
  FILE *f = fopen(depfile, "re");
  char line[PATH_MAX + 64];
  const char *found = NULL;
  if (!f)
    return NULL;
  while (!found && fgets(line, sizeof line, f))
    found = strstr(line, "/cub/")         ? "CUB"
            : strstr(line, "/thrust/")    ? "Thrust"
            : strstr(line, "/cuda/std/")  ? "libcu++"
                                          : NULL;
  fclose(f);
  return found;
}

int cuemu__toolkit_headers_dir(const char *dir, const char *shims) {
  char path[PATH_MAX], real_dir[PATH_MAX], real_shims[PATH_MAX];
  struct stat st;
  if ((size_t)snprintf(path, sizeof path, "%s/cuda_runtime_api.h", dir) >=
          sizeof path ||
      stat(path, &st) != 0 || !realpath(dir, real_dir))
    return 0;
  return !shims || !realpath(shims, real_shims) ||
         strcmp(real_dir, real_shims) != 0;
}

int cuemu__toolkit_shim_links_dir(const char *dir, const char *shims) {
  char path[PATH_MAX], real_header[PATH_MAX], real_shim[PATH_MAX];
  if (!shims ||
      (size_t)snprintf(path, sizeof path, "%s/cuda_runtime_api.h", dir) >=
          sizeof path ||
      !realpath(path, real_header) ||
      (size_t)snprintf(path, sizeof path, "%s/cuda_runtime_api.h", shims) >=
          sizeof path ||
      !realpath(path, real_shim))
    return 0;
  return strcmp(real_header, real_shim) == 0;
}
