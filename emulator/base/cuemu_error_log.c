/*
 * cuemu_error_log.c: the driver's error log of CUDA 12.9 and later
 * (cudaLogs* and cuLogs*): the messages of errors that cuemu reports
 * (cuemu__error_log_add), kept in a buffer of at most 25,600 bytes as the
 * driver's, the oldest dropped first, each numbered so that an iterator
 * (cudaLogIterator) names where a dump starts; and the callbacks that
 * receive each message as it is logged.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"

/* CUDA's limit on the buffered logs (cuLogsDumpToMemory). */
#define CUEMU_ERROR_LOG_BYTES 25600u

/* cudaSuccess and cudaErrorInvalidValue, which are also CUDA_SUCCESS and
 * CUDA_ERROR_INVALID_VALUE: the codes of every cudaLogs* and cuLogs*
 * call. */
enum { LOG_SUCCESS = 0, LOG_INVALID_VALUE = 1 };

/* CUDA's notice, at the head of a dump, that older messages are lost. */
static const char truncated_note[] =
    "[cuemu] earlier log messages were dropped (the log keeps 25600 bytes)\n";

typedef struct entry {
  char *text; /* ends with '\n' */
  size_t len;
} entry;

typedef struct callback {
  struct callback *next;
  cuemu_rt_logs_callback fn;
  void *data;
} callback;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *entries; /* oldest first */
static size_t nentries, bytes;
static unsigned next_seq; /* the number of the next message */
static callback *callbacks;

/* Drops the oldest message; under the lock. */
static void drop_oldest(void) {
  bytes -= entries[0].len;
  free(entries[0].text);
  memmove(entries, entries + 1, --nentries * sizeof *entries);
}

void cuemu__error_log_add(const char *message) {
  size_t len = strlen(message);
  if (len + 1 > CUEMU_ERROR_LOG_BYTES)
    len = CUEMU_ERROR_LOG_BYTES - 1;
  char *text = malloc(len + 2);
  if (!text)
    return;
  memcpy(text, message, len);
  text[len] = '\n';
  text[len + 1] = '\0';
  pthread_mutex_lock(&lock);
  while (nentries && bytes + len + 1 > CUEMU_ERROR_LOG_BYTES)
    drop_oldest();
  entry *grown = realloc(entries, (nentries + 1) * sizeof *entries);
  if (!grown) {
    pthread_mutex_unlock(&lock);
    free(text);
    return;
  }
  entries = grown;
  entries[nentries++] = (entry){text, len + 1};
  next_seq++;
  bytes += len + 1;
  /* The callbacks are called outside the lock, with a copy each (the
   * message is char *, theirs to change), in the order registered. */
  size_t n = 0;
  for (callback *c = callbacks; c; c = c->next)
    n++;
  callback *copy = n ? malloc(n * sizeof *copy) : NULL;
  n = 0;
  for (callback *c = callbacks; c && copy; c = c->next)
    copy[n++] = *c;
  pthread_mutex_unlock(&lock);
  for (size_t i = 0; i < n; ++i) {
    char *mine = malloc(len + 1);
    if (!mine)
      break;
    memcpy(mine, message, len);
    mine[len] = '\0';
    copy[i].fn(copy[i].data, 0 /* cudaLogLevelError */, mine, len);
    free(mine);
  }
  free(copy);
}

int cuemu_rt_logs_register_callback(cuemu_rt_logs_callback fn, void *data,
                                    void **handle) {
  if (!fn)
    return LOG_INVALID_VALUE;
  callback *c = malloc(sizeof *c);
  if (!c)
    return 2; /* cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY */
  c->fn = fn;
  c->data = data;
  c->next = NULL;
  pthread_mutex_lock(&lock);
  callback **end = &callbacks;
  while (*end)
    end = &(*end)->next;
  *end = c;
  pthread_mutex_unlock(&lock);
  if (handle)
    *handle = c;
  return LOG_SUCCESS;
}

int cuemu_rt_logs_unregister_callback(void *handle) {
  pthread_mutex_lock(&lock);
  callback **at = &callbacks;
  while (*at && *at != handle)
    at = &(*at)->next;
  callback *found = *at;
  if (found)
    *at = found->next;
  pthread_mutex_unlock(&lock);
  free(found);
  return found ? LOG_SUCCESS : LOG_INVALID_VALUE;
}

int cuemu_rt_logs_current(unsigned *iterator, unsigned flags) {
  if (!iterator || flags)
    return LOG_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  *iterator = next_seq;
  pthread_mutex_unlock(&lock);
  return LOG_SUCCESS;
}

/* The index of the first kept message numbered `seq` or later (nentries
 * when none), and whether messages from `seq` on were dropped; under the
 * lock. The kept messages are numbered next_seq - nentries to next_seq - 1.
 */
static size_t first_from(unsigned seq, int *lost) {
  unsigned d = next_seq - seq;
  *lost = 0;
  if (d > next_seq)
    return nentries; /* an iterator past the last message */
  if (d <= nentries)
    return nentries - d;
  *lost = 1;
  return 0;
}

/* Copies the messages from `seq` (all when !iterator) into a new text:
 * those that fit in `room` bytes besides the terminating NUL, the most
 * recent kept (with the note that earlier ones were dropped, when any
 * were or do not fit, and it fits too). *len its length; *fits 0 when no
 * message fits. Advances the iterator past the last message. */
static char *dump_text(unsigned *iterator, size_t room, size_t *len,
                       int *fits) {
  pthread_mutex_lock(&lock);
  int lost = 0;
  size_t first = iterator ? first_from(*iterator, &lost) : 0;
  if (!iterator && next_seq > nentries)
    lost = 1;
  size_t total = 0, start = nentries;
  /* The most recent messages that fit, and the note when any before them
   * are left out. */
  while (start > first && total + entries[start - 1].len <= room) {
    total += entries[start - 1].len;
    start--;
  }
  if (start > first)
    lost = 1;
  *fits = start < nentries || first == nentries;
  size_t note = lost && start < nentries && total + sizeof truncated_note - 1 <= room
                    ? sizeof truncated_note - 1
                    : 0;
  char *text = malloc(total + note + 1);
  if (text) {
    memcpy(text, truncated_note, note);
    size_t at = note;
    for (size_t i = start; i < nentries; ++i) {
      memcpy(text + at, entries[i].text, entries[i].len);
      at += entries[i].len;
    }
    text[at] = '\0';
    *len = at;
    if (iterator && *fits)
      *iterator = next_seq;
  }
  pthread_mutex_unlock(&lock);
  return text;
}

int cuemu_rt_logs_dump_to_memory(unsigned *iterator, char *buffer,
                                 size_t *size, unsigned flags) {
  if (!buffer || !size || flags)
    return LOG_INVALID_VALUE;
  if (*size == 0)
    return LOG_INVALID_VALUE;
  size_t len = 0;
  int fits = 0;
  char *text = dump_text(iterator, *size - 1, &len, &fits);
  if (!text)
    return 2;
  if (!fits) {
    free(text);
    buffer[0] = '\0';
    *size = 0;
    return LOG_INVALID_VALUE;
  }
  memcpy(buffer, text, len + 1);
  *size = len;
  free(text);
  return LOG_SUCCESS;
}

int cuemu_rt_logs_dump_to_file(unsigned *iterator, const char *path,
                               unsigned flags) {
  if (!path || flags)
    return LOG_INVALID_VALUE;
  size_t len = 0;
  int fits = 0;
  char *text = dump_text(iterator, (size_t)-2, &len, &fits);
  if (!text)
    return 2;
  FILE *f = fopen(path, "a");
  int ok = f && fwrite(text, 1, len, f) == len;
  if (f && fclose(f) != 0)
    ok = 0;
  free(text);
  return ok ? LOG_SUCCESS : LOG_INVALID_VALUE;
}
