/*
 * cuemu_parity_emu.c: the emulated leg's kernel: compiled by cuemu-cc (the
 * compile cache makes repeated runs cheap), loaded with libcuemu, and its
 * parameter descriptor checked against the case's arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_parity_internal.h"

cuemu_status cuemu__parity_emu_compile(const char *source,
                                       char *const *options, int noptions,
                                       const char *const *names, int nnames,
                                       const char *checks, const char *out,
                                       char **log_tail) {
  *log_tail = NULL;
  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 1;
  /* The case's options, and -g (with the default -O2) so that a fault's
   * report can name the kernel's source line. */
  const char **argv = calloc((size_t)noptions + 1, sizeof *argv);
  if (!argv)
    return cuemu__parity_fail(CUEMU_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < noptions; ++i)
    argv[i] = options[i];
  argv[noptions] = "-g";
  o.argv = argv;
  o.argc = noptions + 1;
  o.checks = checks;
  if (nnames > 0) {
    o.name_expressions = names;
    o.name_expression_count = nnames;
  }
  char log[] = "/tmp/cuemu-cc-log-XXXXXX";
  int fd = mkstemp(log);
  int saved = fd >= 0 ? dup(2) : -1;
  if (saved >= 0) {
    fflush(stderr);
    dup2(fd, 2);
  }
  cuemu_status st = cuemu_compile(source, out, &o, NULL);
  free(argv);
  if (saved >= 0) {
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
  }
  if (st != CUEMU_SUCCESS && fd >= 0)
    *log_tail = cuemu__parity_read_tail(fd, 3000);
  if (fd >= 0) {
    close(fd);
    unlink(log);
  }
  return st;
}

/* Compiles the case's kernel into `out`, with the compiler's messages
 * captured for the report. */
static cuemu_status compile(const cuemu__psetup *s, const char *checks,
                            const char *out) {
  const cuemu_parity_case *c = s->c;
  const char *names[1] = {c->kernel};
  char *why = NULL;
  cuemu_status st = cuemu__parity_emu_compile(
      c->source, c->options, c->noptions, names, strchr(c->kernel, '<') ? 1 : 0,
      checks, out, &why);
  if (st != CUEMU_SUCCESS) {
    char detail[1024];
    snprintf(detail, sizeof detail, "%s", cuemu_last_message());
    st = cuemu__parity_fail(st, "%s%scase '%s': %s does not compile with "
                                "cuemu-cc (%s): %s\n%s",
                            c->file, c->file[0] ? ": " : "", c->name, c->source,
                            cuemu_status_name(st), detail, why ? why : "");
  }
  free(why);
  return st;
}

/* Checks the kernel's parameters against the case's arguments. */
static cuemu_status check_params(const cuemu__psetup *s,
                                 const cuemu_kernel *k) {
  const cuemu_parity_case *c = s->c;
  const char *where = c->file[0] ? c->file : "";
  const char *sep = c->file[0] ? ": " : "";
  int n = cuemu_kernel_param_count(k);
  if (n != c->nargs)
    return cuemu__parity_fail(
        CUEMU_CASE_INVALID,
        "%s%scase '%s': field 'args': kernel %s takes %d parameter%s, the "
        "case gives %d argument%s",
        where, sep, c->name, c->kernel, n, n == 1 ? "" : "s", c->nargs,
        c->nargs == 1 ? "" : "s");
  for (int i = 0; i < n; ++i) {
    const cuemu_param *p = cuemu_kernel_param(k, i);
    const cuemu__parg *a = &c->args[i];
    size_t want = a->is_array ? sizeof(void *) : s->types[i].size;
    char elem[128];
    int depth = cuemu__ptype_split(p->ctype, elem, sizeof elem);
    if (depth != a->is_array || p->size != want ||
        !cuemu__ptype_same(c, p->ctype, a->type)) {
      char place[4200] = "";
      if (c->file[0])
        snprintf(place, sizeof place, "%s:%d: ", c->file,
                 a->line ? a->line : c->line);
      return cuemu__parity_fail(
          CUEMU_CASE_INVALID,
          "%scase '%s': field 'args[%d] (%s).type': '%s' (%zu bytes) "
          "does not match parameter %d of kernel %s, '%s' (%zu bytes)",
          place, c->name, i, a->name, a->type, want, i + 1, c->kernel,
          p->ctype, p->size);
    }
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__parity_emu_load(const cuemu__psetup *s,
                                    const char *checks, cuemu_module **module,
                                    cuemu_kernel **kernel, char *path,
                                    size_t size) {
  const cuemu_parity_case *c = s->c;
  *module = NULL;
  *kernel = NULL;
  cuemu_status st;
  if (c->module) {
    /* Built with other cases' kernels by cuemu__parity_combine(), which
     * removes the file: path stays empty. */
    snprintf(path, size, "%s", "");
    st = cuemu_module_load(module, c->module);
    if (st)
      st = cuemu__parity_fail(st, "case '%s': %s", c->name,
                              cuemu_last_message());
  } else {
    snprintf(path, size, "%s", "/tmp/cuemu-kernel-XXXXXX.so");
    int fd = mkstemps(path, 3);
    if (fd < 0)
      return cuemu__parity_fail(CUEMU_IO_ERROR, "a temporary file: %s",
                                strerror(errno));
    close(fd);
    st = compile(s, checks, path);
  }
  if (!st && !c->module && (st = cuemu_module_load(module, path)))
    st = cuemu__parity_fail(st, "case '%s': %s", c->name, cuemu_last_message());
  if (!st && cuemu_module_get_kernel(*module, c->kernel, kernel))
    st = cuemu__parity_fail(
        CUEMU_CASE_INVALID, "%s%scase '%s': field 'kernel': %s has no kernel %s",
        c->file, c->file[0] ? ": " : "", c->name, c->source, c->kernel);
  if (!st)
    st = check_params(s, *kernel);
  if (st) {
    cuemu_module_unload(*module);
    *module = NULL;
    *kernel = NULL;
    if (path[0])
      unlink(path);
  }
  return st;
}
