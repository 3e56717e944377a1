/* common/book.h: the helpers that the chapter programs of a "CUDA by
 * example"-style repository share: HANDLE_ERROR and HANDLE_NULL, a random
 * block, and a thread start/join pair. Written for this trial. */
#ifndef TRIAL17_BOOK_H
#define TRIAL17_BOOK_H
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void HandleError(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}
#define HANDLE_ERROR(err) (HandleError(err, __FILE__, __LINE__))

#define HANDLE_NULL(a)                                                         \
  {                                                                            \
    if (a == NULL) {                                                           \
      printf("Host memory failed in %s at line %d\n", __FILE__, __LINE__);     \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  }

static void *big_random_block(int size) {
  unsigned char *data = (unsigned char *)malloc(size);
  HANDLE_NULL(data);
  for (int i = 0; i < size; i++) data[i] = rand();
  return data;
}

typedef void *(*CUT_THREADROUTINE)(void *);
static pthread_t start_thread(CUT_THREADROUTINE func, void *data) {
  pthread_t thread;
  pthread_create(&thread, NULL, func, data);
  return thread;
}
static void end_thread(pthread_t thread) { pthread_join(thread, NULL); }

#endif
