/*
 * cuemu_run.c: the cuemu-run command (being written).
 */
#include <stdio.h>

int main(void) {
  fputs("cuemu-run: not written yet\n", stderr);
  return 2;
}
