/*
 * cuemu_cache.c: the compile cache (see <cuemu/cuemu_cache.h>).
 */
#define _GNU_SOURCE
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "base/cuemu_report.h"

struct cuemu_hasher {
  XXH3_state_t *state;
};

cuemu_status cuemu_hasher_create(cuemu_hasher **out, const char *purpose) {
  if (!out || !purpose)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_hasher_create: out and purpose are required");
  *out = NULL;
  cuemu_hasher *h = malloc(sizeof *h);
  if (!h || !(h->state = XXH3_createState())) {
    free(h);
    return cuemu__report(CUEMU_OUT_OF_MEMORY, "no memory for a cache key");
  }
  XXH3_128bits_reset(h->state);
  cuemu_hasher_add_string(h, "cuemu " CUEMU_VERSION);
  cuemu_hasher_add_string(h, purpose);
  *out = h;
  return CUEMU_SUCCESS;
}

void cuemu_hasher_add(cuemu_hasher *h, const void *data, size_t size) {
  XXH3_128bits_update(h->state, data, size);
}

void cuemu_hasher_add_string(cuemu_hasher *h, const char *s) {
  if (!s)
    s = "(null)";
  XXH3_128bits_update(h->state, s, strlen(s) + 1);
}

cuemu_status cuemu_hasher_add_file_stamp(cuemu_hasher *h, const char *path) {
  struct stat st;
  cuemu_hasher_add_string(h, path);
  if (stat(path, &st) != 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot examine %s: %s", path,
                         strerror(errno));
  char num[64];
  snprintf(num, sizeof num, "%lld %lld", (long long)st.st_size,
           (long long)st.st_mtime);
  cuemu_hasher_add_string(h, num);
  return CUEMU_SUCCESS;
}

void cuemu_hasher_finish(cuemu_hasher *h, cuemu_cache_key *key) {
  if (!h)
    return;
  if (key) {
    XXH128_hash_t v = XXH3_128bits_digest(h->state);
    snprintf(key->hex, sizeof key->hex, "%016llx%016llx",
             (unsigned long long)v.high64, (unsigned long long)v.low64);
  }
  XXH3_freeState(h->state);
  free(h);
}

static int mkdir_p(const char *path) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    return -1;
  for (char *p = buf + 1; *p; ++p) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return -1;
      *p = '/';
    }
  }
  if (mkdir(buf, 0755) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

/* A suffix that makes a temporary file name unique to this process, thread
 * and call: ".PID.TID.N". */
static void temp_suffix(char *out, size_t size) {
  static atomic_uint counter;
  snprintf(out, size, ".%ld.%ld.%u", (long)getpid(), (long)gettid(),
           atomic_fetch_add(&counter, 1));
}

cuemu_status cuemu_cache_dir(char *out, size_t size) {
  const char *env = getenv("CUEMU_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  int n;
  if (!out || size == 0)
    return cuemu__report(CUEMU_INVALID_VALUE, "cuemu_cache_dir: no room");
  if (env && *env)
    n = snprintf(out, size, "%s", env);
  else if (xdg && *xdg)
    n = snprintf(out, size, "%s/cuemu", xdg);
  else if (home && *home)
    n = snprintf(out, size, "%s/.cache/cuemu", home);
  else
    n = snprintf(out, size, "/tmp/cuemu-cache-%u", (unsigned)getuid());
  if (n < 0 || (size_t)n >= size)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "the cache folder's path is too long: %s", out);
  if (mkdir_p(out) != 0)
    return cuemu__report(CUEMU_CACHE, "cannot create the cache folder %s: %s",
                         out, strerror(errno));
  return CUEMU_SUCCESS;
}

/* Hashes a file's contents; returns 0, or -1 if it cannot be read. */
static int hash_file(const char *path, unsigned long long *out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return -1;
  }
  if (st.st_size == 0) {
    close(fd);
    *out = XXH3_64bits("", 0);
    return 0;
  }
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return -1;
  *out = XXH3_64bits(map, (size_t)st.st_size);
  munmap(map, (size_t)st.st_size);
  return 0;
}

static int entry_path(char *out, size_t size, const char *dir,
                      const cuemu_cache_key *key) {
  int n = snprintf(out, size, "%s/%s.entry", dir, key->hex);
  return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Copies `size` bytes from `in` to a temporary file beside `to`, then
 * renames it to `to`. Returns 0 or -1. */
static int install_from_stream(FILE *in, unsigned long long size,
                               const char *to, mode_t mode) {
  char tmp[PATH_MAX + 64], suffix[64];
  temp_suffix(suffix, sizeof suffix);
  if (snprintf(tmp, sizeof tmp, "%s%s", to, suffix) >= (int)sizeof tmp)
    return -1;
  int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (out < 0)
    return -1;
  char buf[1 << 16];
  int ok = 1;
  while (ok && size > 0) {
    size_t want = size < sizeof buf ? (size_t)size : sizeof buf;
    size_t got = fread(buf, 1, want, in);
    if (got == 0) {
      ok = 0;
      break;
    }
    for (size_t done = 0; done < got;) {
      ssize_t w = write(out, buf + done, got - done);
      if (w <= 0) {
        ok = 0;
        break;
      }
      done += (size_t)w;
    }
    size -= got;
  }
  if (close(out) != 0)
    ok = 0;
  if (!ok || rename(tmp, to) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* An entry is one file, replaced as a whole by rename():
 *   "cuemu-cache-entry 1 NDEPS SIZE\n", NDEPS lines "HASH PATH\n", then the
 *   SIZE bytes of the module or program. */
#define CUEMU_ENTRY_MAGIC "cuemu-cache-entry 1"

/* Looks the key up; on a hit whose headers are unchanged, installs a copy of
 * the entry at `output` and returns 1. Returns 0 on a miss. */
static int cache_fetch(const char *dir, const cuemu_cache_key *key,
                       const char *output) {
  char path[PATH_MAX];
  if (entry_path(path, sizeof path, dir, key))
    return 0;
  FILE *f = fopen(path, "rbe");
  if (!f)
    return 0;
  unsigned ndeps = 0;
  unsigned long long size = 0;
  char line[PATH_MAX + 64];
  int fresh = fgets(line, sizeof line, f) &&
              sscanf(line, CUEMU_ENTRY_MAGIC " %u %llu", &ndeps, &size) == 2;
  for (unsigned i = 0; fresh && i < ndeps; ++i) {
    size_t len;
    char *space;
    unsigned long long want, have;
    if (!fgets(line, sizeof line, f) || (len = strlen(line)) == 0 ||
        line[len - 1] != '\n' || !(space = strchr(line, ' '))) {
      fresh = 0;
      break;
    }
    line[len - 1] = '\0';
    *space = '\0';
    want = strtoull(line, NULL, 16);
    if (hash_file(space + 1, &have) != 0 || have != want)
      fresh = 0;
  }
  int hit = fresh && install_from_stream(f, size, output, 0755) == 0;
  fclose(f);
  return hit;
}

/* Parses a make-style dependency file into a list of paths (one per line in
 * `out`, which the caller frees). */
static char *read_deps(const char *depfile) {
  FILE *f = fopen(depfile, "re");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *list = malloc(cap);
  if (!list) {
    fclose(f);
    return NULL;
  }
  int c, after_colon = 0, in_word = 0;
  while ((c = fgetc(f)) != EOF) {
    if (!after_colon) {
      /* The target: up to the first ": ". */
      if (c == ':') {
        int next = fgetc(f);
        if (next == ' ' || next == '\n' || next == EOF)
          after_colon = 1;
        else if (next != EOF)
          ungetc(next, f);
      }
      continue;
    }
    if (c == '\\') {
      int next = fgetc(f);
      if (next == '\n')
        c = ' ';
      else if (next == ' ' || next == '#' || next == '\\')
        c = next | 0x100; /* an escaped character inside a path */
      else if (next != EOF)
        ungetc(next, f);
    }
    if (len + 2 >= cap) {
      char *bigger = realloc(list, cap *= 2);
      if (!bigger) {
        free(list);
        fclose(f);
        return NULL;
      }
      list = bigger;
    }
    if (c == ' ' || c == '\n' || c == '\t') {
      if (in_word)
        list[len++] = '\n';
      in_word = 0;
      if (c == '\n') {
        /* A new rule (from -MP) would start here; our files have one. */
      }
      continue;
    }
    list[len++] = (char)(c & 0xff);
    in_word = 1;
  }
  if (in_word)
    list[len++] = '\n';
  list[len] = '\0';
  fclose(f);
  return list;
}

/* Non-zero when the file was modified at or after `since` (a compile's
 * start): the compiler may have read the old contents, so the entry would
 * pair the new contents' hash with an output built from the old. (The
 * change time is not used: it also moves when only metadata changes.) */
static int changed_since(const struct stat *st, const struct timespec *since) {
  const struct timespec *m = &st->st_mtim;
  return m->tv_sec > since->tv_sec ||
         (m->tv_sec == since->tv_sec && m->tv_nsec >= since->tv_nsec);
}

/* Stores `built` (which stays where it is) under `key`, with the headers
 * listed in the make-style dependency file `depfile` except `skip` (may be
 * NULL). Nothing is stored (-1) if a header changed at or after `since`,
 * when the build started. Returns 0 or -1. */
static int cache_store(const char *dir, const cuemu_cache_key *key,
                       const char *built, const char *depfile,
                       const char *skip, const struct timespec *since) {
  char path[PATH_MAX], tmp[PATH_MAX + 64], suffix[64];
  if (entry_path(path, sizeof path, dir, key))
    return -1;
  char *list = read_deps(depfile);
  if (!list)
    return -1;
  /* The header and the dependency lines, built first in memory. */
  size_t cap = strlen(list) * 2 + 256, len = 0;
  char *deps = malloc(cap);
  unsigned ndeps = 0;
  int ok = deps != NULL;
  for (char *p = list, *nl; ok && *p; p = nl + 1) {
    nl = strchr(p, '\n');
    *nl = '\0';
    if (skip && strcmp(p, skip) == 0)
      continue;
    char real[PATH_MAX];
    unsigned long long h;
    struct stat st;
    if (!realpath(p, real) || stat(real, &st) != 0 ||
        changed_since(&st, since) || hash_file(real, &h) != 0) {
      ok = 0;
      break;
    }
    size_t need = strlen(real) + 32;
    if (len + need >= cap) {
      char *bigger = realloc(deps, cap = (len + need) * 2);
      if (!bigger) {
        ok = 0;
        break;
      }
      deps = bigger;
    }
    len += (size_t)snprintf(deps + len, cap - len, "%016llx %s\n", h, real);
    ndeps++;
  }
  free(list);
  FILE *in = ok ? fopen(built, "rbe") : NULL;
  struct stat st;
  if (!in || fstat(fileno(in), &st) != 0) {
    if (in)
      fclose(in);
    free(deps);
    return -1;
  }
  temp_suffix(suffix, sizeof suffix);
  snprintf(tmp, sizeof tmp, "%s%s", path, suffix);
  FILE *out = fopen(tmp, "wbe");
  if (!out) {
    fclose(in);
    free(deps);
    return -1;
  }
  fprintf(out, CUEMU_ENTRY_MAGIC " %u %llu\n", ndeps,
          (unsigned long long)st.st_size);
  fwrite(deps, 1, len, out);
  free(deps);
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n)
      break;
  ok = !ferror(in) && !ferror(out);
  fclose(in);
  if (fclose(out) != 0 || !ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* Copies `from` to `to` through a temporary file and a rename, keeping the
 * executable bit. Returns 0 or -1. */
static int file_install(const char *from, const char *to) {
  FILE *in = fopen(from, "rbe");
  if (!in)
    return -1;
  struct stat st;
  int rc = -1;
  if (fstat(fileno(in), &st) == 0)
    rc = install_from_stream(in, (unsigned long long)st.st_size, to,
                             st.st_mode & 0777);
  fclose(in);
  return rc;
}

cuemu_status cuemu_cache_get(const cuemu_cache_key *key, const char *output,
                             int use_cache, cuemu_cache_build_fn build,
                             void *data, int *hit) {
  if (hit)
    *hit = 0;
  if (!key || !output || !build)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_cache_get: key, output and build are required");
  char dir[PATH_MAX];
  cuemu_status st = cuemu_cache_dir(dir, sizeof dir);
  if (st != CUEMU_SUCCESS)
    return st;
  if (use_cache && cache_fetch(dir, key, output) == 1) {
    if (hit)
      *hit = 1;
    return CUEMU_SUCCESS;
  }
  char temp[PATH_MAX + 64], built[PATH_MAX + 80], depfile[PATH_MAX + 80];
  char suffix[64];
  temp_suffix(suffix, sizeof suffix);
  if (snprintf(temp, sizeof temp, "%s/%s%s", dir, key->hex, suffix) >=
          (int)sizeof temp ||
      snprintf(built, sizeof built, "%s.bin", temp) >= (int)sizeof built ||
      snprintf(depfile, sizeof depfile, "%s.d", temp) >= (int)sizeof depfile)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long: %s",
                         dir);
  cuemu_cache_build b = {built, depfile, temp, NULL};
  /* File times come from the coarse clock: compare with it. */
  struct timespec since;
  clock_gettime(CLOCK_REALTIME_COARSE, &since);
  st = build(data, &b);
  if (st == CUEMU_SUCCESS) {
    if (file_install(built, output) != 0) {
      int err = errno;
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", output,
                         strerror(err));
    } else if (use_cache &&
               cache_store(dir, key, built, depfile, b.skip, &since) != 0) {
      /* The output is there; only later builds lose the cache. */
      fprintf(stderr,
              "cuemu: note: %s was not stored in the cache %s (a header "
              "changed during the build, or the cache cannot be written)\n",
              output, dir);
    }
  }
  unlink(depfile);
  unlink(built);
  return st;
}
