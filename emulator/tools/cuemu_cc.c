/*
 * cuemu_cc.c: the cuemu-cc command, also installed as cuemu-nvcc: a thin
 * front end to cuemu_compile_command(), which reads nvcc's command line.
 */
#include <stdio.h>
#include <string.h>

#include <cuemu/cuemu.h>

int main(int argc, char **argv) {
  const char *name = strrchr(argv[0], '/');
  name = name ? name + 1 : argv[0];
  /* The command line's meaning is libcuemu's (cuemu_compile_command), so
   * that bindings share it. Called as nvcc, -g is nvcc's: the host code's
   * debug information only. */
  if (strstr(name, "nvcc"))
    cuemu_compile_nvcc_debug(1);
  cuemu_status st =
      cuemu_compile_command(argc - 1, (const char *const *)argv + 1, NULL);
  /* -run's program failed: its status, without a word, as nvcc. */
  if (st != CUEMU_SUCCESS && cuemu_compile_run_status() != 0)
    return cuemu_compile_run_status();
  if (st != CUEMU_SUCCESS) {
    /* Worded as nvcc words its errors when called by nvcc's name. */
    if (strstr(name, "nvcc"))
      fprintf(stderr, "%s fatal   : %s\n", name, cuemu_last_message());
    else
      fprintf(stderr, "%s: %s\n", name, cuemu_last_message());
    return 1;
  }
  return 0;
}
