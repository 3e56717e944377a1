/*
 * cuemu_cache.h: the compile cache of cuemu-cc.
 *
 * An entry is one file in the cache folder, KEY.entry: each header the
 * compiler read, with the hash of its contents, then the module or program.
 * KEY covers the source, the options, the compiler's identity and cuemu's
 * version; a lookup also re-hashes every listed header, so editing any
 * included file is a miss. An entry is written to a temporary file and
 * renamed, so parallel processes and threads share the cache safely, and a
 * result is not stored when a header changed while it was being compiled.
 */
#ifndef CUEMU_CACHE_H
#define CUEMU_CACHE_H

#include <stddef.h>
#include <time.h>

#include <xxhash.h>

/* A 128-bit key as 32 hex digits. */
typedef struct cuemu_cache_key {
  char hex[33];
} cuemu_cache_key;

/* Incremental hashing of everything that goes into a key. */
typedef struct cuemu_hasher {
  XXH3_state_t *state;
} cuemu_hasher;

int cuemu__hasher_init(cuemu_hasher *h);
void cuemu__hasher_add(cuemu_hasher *h, const void *data, size_t size);
/* Adds a NUL-terminated string, with its terminator as a separator. */
void cuemu__hasher_add_string(cuemu_hasher *h, const char *s);
void cuemu__hasher_finish(cuemu_hasher *h, cuemu_cache_key *key);

/* The cache folder ($CUEMU_CACHE_DIR, $XDG_CACHE_HOME/cuemu, ~/.cache/cuemu
 * or /tmp/cuemu-cache-UID), created if missing. Returns 0 or -1. */
int cuemu__cache_dir(char *out, size_t size);

/* Looks the key up; on a hit whose headers are unchanged, installs a copy of
 * the entry at `output` and returns 1. Returns 0 on a miss. */
int cuemu__cache_fetch(const char *dir, const cuemu_cache_key *key,
                       const char *output);

/* Stores `built` (which stays where it is) under `key`, with the headers
 * listed in the make-style dependency file `depfile` except `skip`. Nothing
 * is stored (-1) if a header changed at or after `since`, when the compile
 * started. Returns 0 or -1. */
int cuemu__cache_store(const char *dir, const cuemu_cache_key *key,
                       const char *built, const char *depfile,
                       const char *skip, const struct timespec *since);

/* A suffix that makes a temporary file name unique to this process, thread
 * and call: ".PID.TID.N". */
void cuemu__temp_suffix(char *out, size_t size);

/* Copies `from` to `to` through a temporary file and a rename, keeping the
 * executable bit. Returns 0 or -1. */
int cuemu__file_install(const char *from, const char *to);

#endif /* CUEMU_CACHE_H */
