/*
 * cuemu_cache.c: the compile cache (see cuemu_cache.h).
 */
#define _GNU_SOURCE
#include "cuemu_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int cuemu__hasher_init(cuemu_hasher *h) {
  h->state = XXH3_createState();
  if (!h->state)
    return -1;
  XXH3_128bits_reset(h->state);
  return 0;
}

void cuemu__hasher_add(cuemu_hasher *h, const void *data, size_t size) {
  XXH3_128bits_update(h->state, data, size);
}

void cuemu__hasher_add_string(cuemu_hasher *h, const char *s) {
  XXH3_128bits_update(h->state, s, strlen(s) + 1);
}

void cuemu__hasher_finish(cuemu_hasher *h, cuemu_cache_key *key) {
  XXH128_hash_t v = XXH3_128bits_digest(h->state);
  snprintf(key->hex, sizeof key->hex, "%016llx%016llx",
           (unsigned long long)v.high64, (unsigned long long)v.low64);
  XXH3_freeState(h->state);
  h->state = NULL;
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

int cuemu__cache_dir(char *out, size_t size) {
  const char *env = getenv("CUEMU_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  int n;
  if (env && *env)
    n = snprintf(out, size, "%s", env);
  else if (xdg && *xdg)
    n = snprintf(out, size, "%s/cuemu", xdg);
  else if (home && *home)
    n = snprintf(out, size, "%s/.cache/cuemu", home);
  else
    n = snprintf(out, size, "/tmp/cuemu-cache-%u", (unsigned)getuid());
  if (n < 0 || (size_t)n >= size)
    return -1;
  return mkdir_p(out);
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
                      const cuemu_cache_key *key, const char *suffix) {
  int n = snprintf(out, size, "%s/%s.%s", dir, key->hex, suffix);
  return n < 0 || (size_t)n >= size ? -1 : 0;
}

int cuemu__cache_fetch(const char *dir, const cuemu_cache_key *key,
                       const char *output) {
  char deps_path[PATH_MAX], out_path[PATH_MAX];
  if (entry_path(deps_path, sizeof deps_path, dir, key, "deps") ||
      entry_path(out_path, sizeof out_path, dir, key, "out"))
    return 0;
  FILE *deps = fopen(deps_path, "re");
  if (!deps)
    return 0;
  char line[PATH_MAX + 64];
  int fresh = 1;
  while (fresh && fgets(line, sizeof line, deps)) {
    size_t len = strlen(line);
    if (len && line[len - 1] == '\n')
      line[--len] = '\0';
    char *space = strchr(line, ' ');
    if (!space) {
      fresh = 0;
      break;
    }
    *space = '\0';
    unsigned long long want = strtoull(line, NULL, 16), have;
    if (hash_file(space + 1, &have) != 0 || have != want)
      fresh = 0;
  }
  fclose(deps);
  if (!fresh)
    return 0;
  return cuemu__file_install(out_path, output) == 0 ? 1 : 0;
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

int cuemu__cache_store(const char *dir, const cuemu_cache_key *key,
                       const char *built, const char *depfile,
                       const char *skip) {
  char deps_path[PATH_MAX], out_path[PATH_MAX], tmp[PATH_MAX + 32];
  if (entry_path(deps_path, sizeof deps_path, dir, key, "deps") ||
      entry_path(out_path, sizeof out_path, dir, key, "out"))
    return -1;
  char *list = read_deps(depfile);
  if (!list)
    return -1;
  if (cuemu__file_install(built, out_path) != 0) {
    free(list);
    return -1;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", deps_path, (long)getpid());
  FILE *f = fopen(tmp, "we");
  if (!f) {
    free(list);
    return -1;
  }
  int ok = 1;
  for (char *p = list, *nl; *p; p = nl + 1) {
    nl = strchr(p, '\n');
    *nl = '\0';
    if (strcmp(p, skip) == 0)
      continue;
    char real[PATH_MAX];
    unsigned long long h;
    if (!realpath(p, real) || hash_file(real, &h) != 0) {
      ok = 0;
      break;
    }
    fprintf(f, "%016llx %s\n", h, real);
  }
  free(list);
  if (fclose(f) != 0 || !ok || rename(tmp, deps_path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

int cuemu__file_install(const char *from, const char *to) {
  char tmp[PATH_MAX + 32];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", to, (long)getpid()) >=
      (int)sizeof tmp)
    return -1;
  int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0)
    return -1;
  struct stat st;
  if (fstat(in, &st) != 0) {
    close(in);
    return -1;
  }
  int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                 st.st_mode & 0777);
  if (out < 0) {
    close(in);
    return -1;
  }
  char buf[1 << 16];
  ssize_t n;
  int ok = 1;
  while ((n = read(in, buf, sizeof buf)) > 0) {
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(out, buf + done, (size_t)(n - done));
      if (w <= 0) {
        ok = 0;
        break;
      }
      done += w;
    }
    if (!ok)
      break;
  }
  if (n < 0)
    ok = 0;
  close(in);
  if (close(out) != 0)
    ok = 0;
  if (!ok || rename(tmp, to) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}
