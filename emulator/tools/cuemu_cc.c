/*
 * cuemu_cc.c: the cuemu-cc command, a thin front end to
 * cuemu_compile_command().
 */
#include <stdio.h>
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
        "  --cxx=COMPILER    the C++ compiler (default: $CXX, then c++)\n"
        "  --no-cache        do not look the result up in the compile cache\n"
        "  -v                say whether the cache was hit\n"
        "  --version, --help\n",
        out);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--version") == 0) {
      printf("cuemu-cc " CUEMU_VERSION "\n");
      return 0;
    }
  }
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  /* The command line's meaning is libcuemu's (cuemu_compile_command), so
   * that bindings share it. */
  cuemu_status st =
      cuemu_compile_command(argc - 1, (const char *const *)argv + 1, NULL);
  if (st != CUEMU_SUCCESS) {
    fprintf(stderr, "cuemu-cc: %s\n", cuemu_last_message());
    return 1;
  }
  return 0;
}
