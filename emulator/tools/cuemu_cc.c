/*
 * cuemu_cc.c: the cuemu-cc command, a thin front end to cuemu_compile().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>

static void usage(FILE *out) {
  fputs("usage: cuemu-cc [options] FILE.cu\n"
        "Compiles a CUDA source file for the cuemu CPU emulator.\n"
        "\n"
        "  --module          build a loadable module (default: a program)\n"
        "  -o FILE           output (default: FILE.so for a module, a.out)\n"
        "  -g                debug build (-g -O0)\n"
        "  --name-expr EXPR  export a template instantiation, e.g.\n"
        "                    'scale<double, 3>' (repeatable)\n"
        "  -I DIR, -D X, -U X, -std=..., -O..., -f..., -W..., -m...\n"
        "                    passed to the C++ compiler ($CXX)\n"
        "  --check=LIST      build in checkers: sync, race, mem, init or all\n"
        "                    (comma separated; see docs/checkers.md)\n"
        "  --no-cache        do not look the result up in the compile cache\n"
        "  -v                say whether the cache was hit\n"
        "  --version, --help\n",
        out);
}

/* Options that take their value as the next argument. */
static int takes_value(const char *a) {
  return strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 ||
         strcmp(a, "-U") == 0 || strcmp(a, "-include") == 0 ||
         strcmp(a, "-isystem") == 0;
}

int main(int argc, char **argv) {
  cuemu_compile_options opt;
  memset(&opt, 0, sizeof opt);
  const char **pass = calloc((size_t)argc + 1, sizeof *pass);
  const char **names = calloc((size_t)argc + 1, sizeof *names);
  const char *source = NULL, *output = NULL;
  int npass = 0, nnames = 0, verbose = 0;
  if (!pass || !names) {
    fputs("cuemu-cc: out of memory\n", stderr);
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("cuemu-cc " CUEMU_VERSION "\n");
      return 0;
    } else if (strcmp(a, "--module") == 0) {
      opt.module = 1;
    } else if (strcmp(a, "-g") == 0) {
      opt.debug = 1;
    } else if (strncmp(a, "--check=", 8) == 0) {
      opt.checks = a + 8;
    } else if (strcmp(a, "--no-cache") == 0) {
      opt.no_cache = 1;
    } else if (strcmp(a, "-v") == 0) {
      verbose = 1;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--name-expr") == 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "cuemu-cc: %s needs a value\n", a);
        return 2;
      }
      if (a[1] == 'o')
        output = argv[++i];
      else
        names[nnames++] = argv[++i];
    } else if (takes_value(a)) {
      if (i + 1 >= argc) {
        fprintf(stderr, "cuemu-cc: %s needs a value\n", a);
        return 2;
      }
      pass[npass++] = a;
      pass[npass++] = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      pass[npass++] = a;
    } else if (!source) {
      source = a;
    } else {
      fprintf(stderr, "cuemu-cc: one source file at a time (%s and %s)\n",
              source, a);
      return 2;
    }
  }
  if (!source) {
    usage(stderr);
    return 2;
  }
  char default_output[4096];
  if (!output) {
    if (opt.module) {
      const char *base = strrchr(source, '/');
      base = base ? base + 1 : source;
      const char *dot = strrchr(base, '.');
      int len = dot ? (int)(dot - base) : (int)strlen(base);
      snprintf(default_output, sizeof default_output, "%.*s.so", len, base);
      output = default_output;
    } else {
      output = "a.out";
    }
  }
  opt.argv = pass;
  opt.argc = npass;
  opt.name_expressions = names;
  opt.name_expression_count = nnames;
  int hit = 0;
  cuemu_status st = cuemu_compile(source, output, &opt, &hit);
  if (st != CUEMU_SUCCESS) {
    fprintf(stderr, "cuemu-cc: %s\n", cuemu_last_message());
    return 1;
  }
  if (verbose)
    fprintf(stderr, "cuemu-cc: %s: %s\n", output,
            hit ? "cache hit" : "compiled");
  free(pass);
  free(names);
  return 0;
}
