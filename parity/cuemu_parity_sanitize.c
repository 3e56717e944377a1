/*
 * cuemu_parity_sanitize.c: running the GPU leg under NVIDIA's
 * compute-sanitizer: finding the tool, building its command line and
 * reading the error count from its summary.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_parity_gpu.h"

static const char *const tools[] = {"memcheck", "racecheck", "synccheck",
                                    "initcheck"};

int cuemu__parity_sanitizer_tool_valid(const char *tool) {
  for (size_t i = 0; tool && i < sizeof tools / sizeof tools[0]; ++i)
    if (strcmp(tool, tools[i]) == 0)
      return 1;
  return 0;
}

/* `folder`/compute-sanitizer, malloc()ed, when it is executable. */
static char *executable_in(const char *folder, size_t length) {
  static const char name[] = "compute-sanitizer";
  char *path = malloc(length + sizeof name + 1);
  if (!path)
    return NULL;
  memcpy(path, folder, length);
  path[length] = '/';
  memcpy(path + length + 1, name, sizeof name);
  if (access(path, X_OK) == 0)
    return path;
  free(path);
  return NULL;
}

char *cuemu__parity_sanitizer_find(void) {
  char bin[4096];
  snprintf(bin, sizeof bin, "%s/bin", cuemu__parity_cuda_home());
  char *path = executable_in(bin, strlen(bin));
  if (!path) {
    static const char fallback[] = "/usr/local/cuda/bin";
    path = executable_in(fallback, sizeof fallback - 1);
  }
  const char *search = getenv("PATH");
  while (!path && search && *search) {
    size_t length = strcspn(search, ":");
    if (length > 0)
      path = executable_in(search, length);
    search += length;
    if (*search == ':')
      ++search;
  }
  return path;
}

cuemu_status cuemu__parity_sanitizer_argv(const char *sanitizer,
                                          const char *tool, const char *self,
                                          const char *case_name,
                                          const char *case_file, char ***argv) {
  if (argv)
    *argv = NULL;
  if (!sanitizer || !self || !case_name || !case_file || !argv ||
      !cuemu__parity_sanitizer_tool_valid(tool))
    return CUEMU_INVALID_VALUE;
  char exit_code[16];
  snprintf(exit_code, sizeof exit_code, "%d", CUEMU_PARITY_SANITIZER_EXIT);
  const char *words[] = {
      sanitizer, "--tool",         tool,     "--error-exitcode", exit_code,
      self,      "--gpu-leg-only", "--case", case_name,          case_file};
  enum { COUNT = sizeof words / sizeof words[0] };
  size_t bytes = (COUNT + 1) * sizeof(char *);
  for (int i = 0; i < COUNT; ++i)
    bytes += strlen(words[i]) + 1;
  char **vector = malloc(bytes);
  if (!vector)
    return CUEMU_OUT_OF_MEMORY;
  char *text = (char *)(vector + COUNT + 1);
  for (int i = 0; i < COUNT; ++i) {
    size_t n = strlen(words[i]) + 1;
    memcpy(text, words[i], n);
    vector[i] = text;
    text += n;
  }
  vector[COUNT] = NULL;
  *argv = vector;
  return CUEMU_SUCCESS;
}

/* The count before `what` ("error") in the text after `label`, whose
 * summary reads "LABEL N what" or "LABEL ... (N what, ...)": the last
 * such line in `text`; -1 when there is none. */
static long last_count(const char *text, const char *label, int in_parens) {
  long count = -1;
  for (const char *at = strstr(text, label); at; at = strstr(at + 1, label)) {
    const char *p = at + strlen(label);
    if (in_parens) {
      const char *end = strchr(p, '\n');
      const char *open = strchr(p, '(');
      if (!open || (end && open > end))
        continue;
      p = open + 1;
    }
    while (*p == ' ')
      ++p;
    char *after = NULL;
    long n = strtol(p, &after, 10);
    if (after == p || n < 0)
      continue;
    while (*after == ' ')
      ++after;
    if (strncmp(after, "error", 5) == 0)
      count = n;
  }
  return count;
}

long cuemu__parity_sanitizer_errors(const char *text) {
  if (!text)
    return -1;
  long summary = last_count(text, "ERROR SUMMARY:", 0);
  long races = last_count(text, "RACECHECK SUMMARY:", 1);
  return summary > races ? summary : races;
}
