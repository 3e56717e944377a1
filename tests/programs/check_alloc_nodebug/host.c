/* host.c (check_alloc_nodebug.sh): the program's main, without -g. Its
 * static function calls alloc.c's routine: without debugging information,
 * addr2line still names this file for a static function (from the symbol
 * table), with no line. The buffer is never freed. */
#include <stddef.h>
#include <stdio.h>

void *make_device_buffer(size_t bytes);
int fill_on_device(int *p, int n);

static __attribute__((noinline)) int *make_layer(int n) {
  int *p = (int *)make_device_buffer((size_t)n * sizeof(int));
  if (!p)
    fprintf(stderr, "no buffer\n");
  return p;
}

int main(void) {
  int *p = make_layer(64);
  if (!p || fill_on_device(p, 64) != 64)
    return 1;
  printf("PASS\n");
  return 0;
}
