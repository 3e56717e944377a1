/*
 * cuemu_cache.c: the compile cache (see <cuemu/cuemu_cache.h>).
 */
#define _GNU_SOURCE
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>

#include "cuemu_driver.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <sys/file.h>
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

/* Options whose value is a path, attached ("-Idir") or as the next word. */
static const char *const path_options[] = {
    "-I", "-iquote", "-isystem", "-idirafter", "-include", "-imacros",
    "-iprefix", "-isysroot", "-L", "-B", "--sysroot=", "-MF", "-o", NULL};

/* Non-zero when the word `a` (or, for an option given alone, its value
 * `next`) names a relative path. */
static int names_relative_path(const char *a, const char *next,
                               int *takes_next) {
  *takes_next = 0;
  if (a[0] != '-')
    return a[0] != '/';
  for (int i = 0; path_options[i]; ++i) {
    size_t n = strlen(path_options[i]);
    if (strncmp(a, path_options[i], n) != 0)
      continue;
    if (a[n]) {
      /* "-isystem" also starts with "-I": only a known option counts. */
      if (strcmp(path_options[i], "-I") == 0 && a[1] != 'I')
        continue;
      return a[n] != '/';
    }
    *takes_next = 1;
    return next && next[0] != '/';
  }
  return 0;
}

/* The variables of the environment that change where a GCC-compatible
 * compiler finds headers, libraries and its own parts. */
static const char *const search_variables[] = {
    "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
    "LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", NULL};

cuemu_status cuemu_hasher_add_context(cuemu_hasher *h, int argc,
                                      const char *const *argv) {
  for (int i = 0; search_variables[i]; ++i) {
    const char *v = getenv(search_variables[i]);
    cuemu_hasher_add_string(h, search_variables[i]);
    cuemu_hasher_add_string(h, v ? v : "(unset)");
  }
  int relative = 0;
  for (int i = 0; i < argc && !relative; ++i) {
    int takes_next;
    relative = names_relative_path(argv[i], i + 1 < argc ? argv[i + 1] : NULL,
                                   &takes_next);
    i += takes_next;
  }
  if (relative) {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
      return cuemu__report(CUEMU_IO_ERROR,
                           "cannot name the working folder: %s",
                           strerror(errno));
    cuemu_hasher_add_string(h, "cwd");
    cuemu_hasher_add_string(h, cwd);
  }
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
  /* The folder itself must not be writable by others, whatever the umask
   * (cuemu_cache_dir() refuses such a folder). */
  if (mkdir(buf, 0755) == 0)
    return chmod(buf, 0755);
  return errno == EEXIST ? 0 : -1;
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
  /* Entries are programs that get run: a folder that another user owns or
   * can write could hold anything. */
  struct stat st;
  if (lstat(out, &st) != 0 || !S_ISDIR(st.st_mode))
    return cuemu__report(CUEMU_CACHE, "the cache folder %s is not a folder",
                         out);
  if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
    return cuemu__report(CUEMU_CACHE,
                         "the cache folder %s is %s; it is not used (entries "
                         "from it would be run)",
                         out,
                         st.st_uid != geteuid() ? "owned by another user"
                                                : "writable by other users");
  if (access(out, W_OK | X_OK) != 0)
    return cuemu__report(CUEMU_CACHE, "the cache folder %s is not writable",
                         out);
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
 * renames it to `to`. With `sum` (an entry's checksum, whose hash of the
 * bytes before the copied ones is in `state`), the copy is renamed only when
 * the checksum of everything matches, so that a damaged entry is never
 * installed, let alone run. Returns 0 or -1. */
static int install_from_stream(FILE *in, unsigned long long size,
                               const char *to, mode_t mode,
                               XXH3_state_t *state, const char *sum) {
  char tmp[PATH_MAX + 64], suffix[64];
  struct stat existing;
  /* An output that is not a file (`-o /dev/null`, a FIFO, /dev/stdout) is
   * written, as the compilers write it, never replaced. */
  int direct = stat(to, &existing) == 0 && !S_ISREG(existing.st_mode) &&
               !S_ISDIR(existing.st_mode);
  temp_suffix(suffix, sizeof suffix);
  if (snprintf(tmp, sizeof tmp, "%s%s", to, suffix) >= (int)sizeof tmp)
    return -1;
  int out = direct ? open(to, O_WRONLY | O_TRUNC | O_CLOEXEC)
                   : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
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
    if (state)
      XXH3_128bits_update(state, buf, got);
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
  if (ok && state) {
    /* Nothing may follow the payload, and the sum must match. */
    char hex[33];
    XXH128_hash_t v = XXH3_128bits_digest(state);
    snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)v.high64,
             (unsigned long long)v.low64);
    ok = fgetc(in) == EOF && strcmp(hex, sum) == 0;
  }
  if (close(out) != 0)
    ok = 0;
  if (direct)
    return ok ? 0 : -1;
  if (!ok || rename(tmp, to) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* An entry is one file, replaced as a whole by rename():
 *   "cuemu-cache-entry 3 NLINES SIZE SUM NOTES\n", then NLINES lines, each
 *   either "HASH PATH\n" (a file the build read, with the hash of its
 *   contents) or "- PATH\n" (a file that did not exist and would have been
 *   read instead of one of those had it existed: a header that would shadow
 *   another), then the NOTES bytes that the build printed on its standard
 *   error (the compiler's warnings, printed again at every hit, as nvcc
 *   prints them at every build and ccache replays them), then the SIZE
 *   bytes of the module or program. SUM is the 128-bit hash of everything
 *   after the first line; an entry whose SUM does not match is not used. */
#define CUEMU_ENTRY_MAGIC "cuemu-cache-entry 3"

/* Opens an entry for reading only when it is a regular file owned by this
 * user that nobody else can write: an entry planted by another user is never
 * installed. O_NONBLOCK keeps a FIFO at the entry's path from hanging the
 * lookup; O_NOFOLLOW refuses a symbolic link. */
static FILE *open_entry(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  struct stat st;
  FILE *f = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
      !(st.st_mode & (S_IWGRP | S_IWOTH)))
    f = fdopen(fd, "rb");
  if (!f)
    close(fd);
  return f;
}

/* Looks the key up; on a hit whose files are unchanged (and whose shadowing
 * candidates are still absent), installs a copy of the entry at `output`
 * and returns 1. Returns 0 on a miss. */
static int cache_fetch(const char *dir, const cuemu_cache_key *key,
                       const char *output) {
  char path[PATH_MAX];
  if (entry_path(path, sizeof path, dir, key))
    return 0;
  FILE *f = open_entry(path);
  if (!f)
    return 0;
  unsigned nlines = 0;
  unsigned long long size = 0, nnotes = 0;
  char line[PATH_MAX + 64], sum[40], *notes = NULL;
  XXH3_state_t *state = XXH3_createState();
  int fresh = state && fgets(line, sizeof line, f) &&
              sscanf(line, CUEMU_ENTRY_MAGIC " %u %llu %39s %llu", &nlines,
                     &size, sum, &nnotes) == 4 &&
              strlen(sum) == 32 && nnotes < (1ull << 30);
  if (state)
    XXH3_128bits_reset(state);
  for (unsigned i = 0; fresh && i < nlines; ++i) {
    size_t len;
    char *space;
    unsigned long long want, have;
    struct stat st;
    if (!fgets(line, sizeof line, f) || (len = strlen(line)) == 0 ||
        line[len - 1] != '\n' || !(space = strchr(line, ' '))) {
      fresh = 0;
      break;
    }
    XXH3_128bits_update(state, line, len);
    line[len - 1] = '\0';
    *space = '\0';
    if (strcmp(line, "-") == 0) {
      if (lstat(space + 1, &st) == 0 || errno != ENOENT)
        fresh = 0;
      continue;
    }
    want = strtoull(line, NULL, 16);
    if (hash_file(space + 1, &have) != 0 || have != want)
      fresh = 0;
  }
  if (fresh && nnotes > 0) {
    notes = malloc((size_t)nnotes);
    fresh = notes && fread(notes, 1, (size_t)nnotes, f) == nnotes;
    if (fresh)
      XXH3_128bits_update(state, notes, (size_t)nnotes);
  }
  int hit = fresh &&
            install_from_stream(f, size, output, 0755, state, sum) == 0;
  /* A hit makes the entry recently used (cuemu__cache_bound()), and says
   * what the build said. */
  if (hit) {
    futimens(fileno(f), NULL);
    if (nnotes > 0) {
      fwrite(notes, 1, (size_t)nnotes, stderr);
      fflush(stderr);
    }
  }
  free(notes);
  if (state)
    XXH3_freeState(state);
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

/* Appends `text` to the growing buffer *buf (of *len bytes, room *cap).
 * Returns 0 or -1. */
static int append(char **buf, size_t *len, size_t *cap, const char *text) {
  size_t n = strlen(text);
  if (*len + n + 1 > *cap) {
    size_t want = (*len + n + 1) * 2;
    char *bigger = realloc(*buf, want);
    if (!bigger)
      return -1;
    *buf = bigger;
    *cap = want;
  }
  memcpy(*buf + *len, text, n + 1);
  *len += n;
  return 0;
}

/* Adds to the entry's lines (*deps, *len, *cap, *nlines) a line "- PATH"
 * for every file that would shadow one the build read had it existed: a
 * file read from `search[i]` under the relative path N would have been
 * taken from search[j]/N, j < i, had that existed (nvcc's and the C++
 * compilers' include search). `paths` holds the files read, one per line.
 * Candidates that exist now are not recorded (the search did not take
 * them, so they come later in it). Returns 0 or -1. */
static int shadow_candidates(const char *paths, const char *const *search,
                             char **deps, size_t *len, size_t *cap,
                             unsigned *nlines) {
  if (!search || !search[0])
    return 0;
  size_t ndirs = 0;
  while (search[ndirs])
    ndirs++;
  char(*dirs)[PATH_MAX] = calloc(ndirs, sizeof *dirs);
  if (!dirs)
    return -1;
  for (size_t i = 0; i < ndirs; ++i)
    if (!realpath(search[i], dirs[i]))
      dirs[i][0] = '\0';
  int rc = 0;
  for (const char *p = paths, *nl; rc == 0 && *p; p = nl + 1) {
    nl = strchr(p, '\n');
    char given[PATH_MAX], real[PATH_MAX];
    snprintf(given, sizeof given, "%.*s", (int)(nl - p), p);
    if (!realpath(given, real))
      continue;
    for (size_t i = 1; rc == 0 && i < ndirs; ++i) {
      size_t dl = strlen(dirs[i]);
      if (!dl || strncmp(real, dirs[i], dl) != 0 || real[dl] != '/')
        continue;
      const char *name = real + dl + 1;
      for (size_t j = 0; rc == 0 && j < i; ++j) {
        char candidate[PATH_MAX], line[PATH_MAX + 8];
        struct stat st;
        if (!dirs[j][0] || strcmp(dirs[j], dirs[i]) == 0 ||
            snprintf(candidate, sizeof candidate, "%s/%s", dirs[j], name) >=
                (int)sizeof candidate ||
            lstat(candidate, &st) == 0)
          continue;
        snprintf(line, sizeof line, "- %s\n", candidate);
        if (strstr(*deps, line))
          continue;
        rc = append(deps, len, cap, line);
        (*nlines)++;
      }
    }
  }
  free(dirs);
  return rc;
}

/* Stores `built` (which stays where it is) under `key`, with the files
 * listed in the make-style dependency file `depfile` except `skip` (may be
 * NULL), and the files that would shadow them in the folders `search`
 * (shadow_candidates()).
 * Nothing is stored (-1) if a file changed at or after `since`, when the
 * build started. Returns 0 or -1. */
static int cache_store(const char *dir, const cuemu_cache_key *key,
                       const char *built, const char *depfile,
                       const char *skip, const char *const *search,
                       const struct timespec *since, const char *notes,
                       size_t nnotes) {
  char path[PATH_MAX], tmp[PATH_MAX + 64], suffix[64];
  if (entry_path(path, sizeof path, dir, key))
    return -1;
  char *list = read_deps(depfile);
  if (!list)
    return -1;
  /* The dependency lines, built first in memory: the real path of each
   * file read, then the shadowing candidates of those paths. */
  size_t cap = strlen(list) * 2 + 256, len = 0, rcap = 256, rlen = 0;
  char *deps = malloc(cap), *reals = malloc(rcap);
  unsigned nlines = 0;
  int ok = deps && reals;
  if (ok)
    deps[0] = reals[0] = '\0';
  for (char *p = list, *nl; ok && *p; p = nl + 1) {
    nl = strchr(p, '\n');
    *nl = '\0';
    if (skip && strcmp(p, skip) == 0)
      continue;
    char real[PATH_MAX], entry[PATH_MAX + 32];
    unsigned long long h;
    struct stat st;
    if (!realpath(p, real) || stat(real, &st) != 0 ||
        changed_since(&st, since) || hash_file(real, &h) != 0) {
      ok = 0;
      break;
    }
    snprintf(entry, sizeof entry, "%016llx %s\n", h, real);
    /* The shadowing candidates come from the paths as the compiler found
     * them (before symbolic links are resolved). */
    ok = append(&deps, &len, &cap, entry) == 0 &&
         append(&reals, &rlen, &rcap, p) == 0 &&
         append(&reals, &rlen, &rcap, "\n") == 0;
    nlines++;
  }
  free(list);
  if (ok)
    ok = shadow_candidates(reals, search, &deps, &len, &cap, &nlines) == 0;
  free(reals);
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
  /* Only this user may write the entry, whatever the umask: entries that
   * others can write are refused (open_entry()). */
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
  XXH3_state_t *state = XXH3_createState();
  if (!out || !state) {
    if (out)
      fclose(out);
    else if (fd >= 0)
      close(fd);
    if (fd >= 0)
      unlink(tmp);
    XXH3_freeState(state);
    fclose(in);
    free(deps);
    return -1;
  }
  fchmod(fd, 0644);
  XXH3_128bits_reset(state);
  /* The first line is written again once the checksum is known; its width
   * does not change. */
  char head[160];
  int head_len = snprintf(head, sizeof head,
                          CUEMU_ENTRY_MAGIC " %u %llu %032d %llu\n", nlines,
                          (unsigned long long)st.st_size, 0,
                          (unsigned long long)nnotes);
  fwrite(head, 1, (size_t)head_len, out);
  fwrite(deps, 1, len, out);
  XXH3_128bits_update(state, deps, len);
  free(deps);
  if (nnotes > 0) {
    fwrite(notes, 1, nnotes, out);
    XXH3_128bits_update(state, notes, nnotes);
  }
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
    XXH3_128bits_update(state, buf, n);
    if (fwrite(buf, 1, n, out) != n)
      break;
  }
  ok = !ferror(in) && !ferror(out);
  fclose(in);
  XXH128_hash_t v = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  snprintf(head, sizeof head, CUEMU_ENTRY_MAGIC " %u %llu %016llx%016llx %llu\n",
           nlines, (unsigned long long)st.st_size,
           (unsigned long long)v.high64, (unsigned long long)v.low64,
           (unsigned long long)nnotes);
  if (ok)
    ok = fseek(out, 0, SEEK_SET) == 0 && (int)strlen(head) == head_len &&
         fwrite(head, 1, (size_t)head_len, out) == (size_t)head_len;
  /* rename() replaces whatever is at the entry's path, even a FIFO. */
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
                             st.st_mode & 0777, NULL, NULL);
  fclose(in);
  return rc;
}

/* Non-zero when the temporary file `name` (in the cache folder) was left by
 * a build that can no longer finish: its process (the first number of the
 * ".PID.TID.N" suffix) is gone, or it is a day old. */
static int is_stale_temp(const char *dir, const char *name) {
  const char *p = strchr(name, '.');
  while (p) {
    char *end;
    long pid = strtol(p + 1, &end, 10);
    if (end != p + 1 && *end == '.' && pid > 0) {
      long tid = strtol(end + 1, &end, 10);
      if (*end == '.' && tid > 0 && isdigit((unsigned char)end[1])) {
        char path[PATH_MAX];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
            lstat(path, &st) != 0 || st.st_uid != geteuid())
          return 0;
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
          return 1;
        return time(NULL) - st.st_mtime > 24 * 3600;
      }
    }
    p = strchr(p + 1, '.');
  }
  return 0;
}

/* Non-zero when `name` is a lock file (lock_key()) that nobody holds: left
 * by a build that was killed. */
static int is_stale_lock(DIR *d, const char *name) {
  size_t n = strlen(name);
  if (n < 5 || strcmp(name + n - 5, ".lock") != 0)
    return 0;
  int fd = openat(dirfd(d), name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return 0;
  int free_lock = flock(fd, LOCK_EX | LOCK_NB) == 0;
  close(fd);
  return free_lock;
}

/* Removes the temporary files and locks of builds that were killed (a build
 * removes its own). Called before each build, so that nothing stays
 * forever. */
static void sweep(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' &&
        (is_stale_temp(dir, e->d_name) || is_stale_lock(d, e->d_name)))
      unlinkat(dirfd(d), e->d_name, 0);
  closedir(d);
}

/* One entry that cuemu__cache_bound() may remove. */
typedef struct bound_entry {
  char name[64];
  struct timespec used;
  unsigned long long bytes;
} bound_entry;

/* Non-zero when the open entry `f`'s content begins with one of `magics`
 * (`n` bytes each, the list ending with NULL): its dependency lines are
 * skipped. */
static int entry_begins_with(FILE *f, const char *const *magics, size_t n) {
  char line[PATH_MAX + 64], head[64];
  unsigned nlines = 0;
  unsigned long long size = 0, nnotes = 0;
  if (n > sizeof head || !fgets(line, sizeof line, f) ||
      sscanf(line, CUEMU_ENTRY_MAGIC " %u %llu %*s %llu", &nlines, &size,
             &nnotes) != 3 ||
      size < n || nnotes >= (1ull << 30))
    return 0;
  for (unsigned i = 0; i < nlines; ++i)
    if (!fgets(line, sizeof line, f))
      return 0;
  if (fseeko(f, (off_t)nnotes, SEEK_CUR) != 0 || fread(head, 1, n, f) != n)
    return 0;
  for (; *magics; ++magics)
    if (memcmp(head, *magics, n) == 0)
      return 1;
  return 0;
}

static int less_recent(const void *a, const void *b) {
  const struct timespec *x = &((const bound_entry *)a)->used,
                        *y = &((const bound_entry *)b)->used;
  if (x->tv_sec != y->tv_sec)
    return x->tv_sec < y->tv_sec ? -1 : 1;
  return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

void cuemu__cache_bound(const char *const *magics, size_t n,
                        size_t max_entries,
                        unsigned long long max_bytes) {
  char dir[PATH_MAX];
  if (cuemu_cache_dir(dir, sizeof dir) != CUEMU_SUCCESS)
    return;
  DIR *d = opendir(dir);
  if (!d)
    return;
  bound_entry *list = NULL;
  size_t count = 0, cap = 0;
  unsigned long long total = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 6 || len >= sizeof list->name ||
        strcmp(e->d_name + len - 6, ".entry") != 0)
      continue;
    int fd = openat(dirfd(d), e->d_name,
                    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                      st.st_uid == geteuid()
                  ? fdopen(fd, "rb")
                  : NULL;
    if (!f) {
      if (fd >= 0)
        close(fd);
      continue;
    }
    int match = entry_begins_with(f, magics, n);
    fclose(f);
    if (!match)
      continue;
    if (count == cap) {
      bound_entry *bigger = realloc(list, (cap = cap ? 2 * cap : 16) *
                                              sizeof *list);
      if (!bigger)
        break;
      list = bigger;
    }
    snprintf(list[count].name, sizeof list[count].name, "%s", e->d_name);
    list[count].used = st.st_mtim;
    list[count].bytes = (unsigned long long)st.st_size;
    total += list[count++].bytes;
  }
  /* The least recently used go first, until both bounds hold. */
  if (list)
    qsort(list, count, sizeof *list, less_recent);
  for (size_t i = 0;
       i < count && (count - i > max_entries || total > max_bytes); ++i) {
    unlinkat(dirfd(d), list[i].name, 0);
    total -= list[i].bytes;
  }
  free(list);
  closedir(d);
}

/* Takes the lock of `key` (a file beside its entry, flock()ed), so that
 * concurrent builds of one key build it once: the others wait, then find
 * the entry. Returns the lock's descriptor, or -1 (then builds just do not
 * wait for each other). */
static int lock_key(const char *dir, const cuemu_cache_key *key,
                    char *path, size_t size) {
  if (snprintf(path, size, "%s/%s.lock", dir, key->hex) >= (int)size)
    return -1;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return -1;
  while (flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      close(fd);
      return -1;
    }
  }
  return fd;
}

/* Held while fd 2 is captured: a process's standard error is one, so a
 * build in another thread meanwhile (or a build within the build: the
 * precompiled prelude's) is not captured by itself; what it prints goes
 * where fd 2 goes. */
static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether this process runs one thread (Linux's /proc/self/status). */
static int single_threaded(void) {
  FILE *f = fopen("/proc/self/status", "re");
  char line[128];
  int threads = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %d", &threads) == 1)
      break;
  if (f)
    fclose(f);
  return threads == 1;
}

/* While a build that is to be stored runs, this process's standard error
 * (fd 2, which the compilers it starts inherit) goes to the file `path`, so
 * that the entry can keep what the build said. Returns the descriptor of
 * the real standard error, or -1 when nothing is captured: also in a
 * process of several threads (the fake CuPy compiling from threads, NVRTC
 * in a running program), whose other threads' messages would be kept in
 * the entry and printed again at its hits; there a hit says nothing. */
static int capture_stderr(const char *path) {
  if (!single_threaded())
    return -1;
  if (pthread_mutex_trylock(&capture_lock) != 0)
    return -1;
  fflush(stderr);
  int saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
                0600);
  if (saved < 0 || fd < 0 || dup2(fd, 2) < 0) {
    if (fd >= 0) {
      close(fd);
      unlink(path);
    }
    if (saved >= 0)
      close(saved);
    pthread_mutex_unlock(&capture_lock);
    return -1;
  }
  close(fd);
  return saved;
}

/* Gives the standard error back (capture_stderr()'s `saved`), prints what
 * the build said on it, and returns that text (its size in *size; the
 * caller frees it), or NULL with *size 0. */
static char *release_stderr(int saved, const char *path, size_t *size) {
  *size = 0;
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  pthread_mutex_unlock(&capture_lock);
  char *text = cuemu__read_file(path, size);
  unlink(path);
  if (!text)
    *size = 0;
  if (*size > 0) {
    fwrite(text, 1, *size, stderr);
    fflush(stderr);
  }
  return text;
}

/* Builds in `dir` (the cache folder, or a private folder when the cache is
 * not usable) and installs the result at `output`; stores it when `store`,
 * with the messages the build printed (capture_stderr()). See
 * cuemu_cache_get(). */
static cuemu_status build_and_install(const char *dir,
                                      const cuemu_cache_key *key,
                                      const char *output, int store,
                                      cuemu_cache_build_fn build, void *data) {
  char temp[PATH_MAX + 64], built[PATH_MAX + 80], depfile[PATH_MAX + 80];
  char notes_path[PATH_MAX + 80], suffix[64];
  temp_suffix(suffix, sizeof suffix);
  if (snprintf(temp, sizeof temp, "%s/%s%s", dir, key->hex, suffix) >=
          (int)sizeof temp ||
      snprintf(built, sizeof built, "%s.bin", temp) >= (int)sizeof built ||
      snprintf(depfile, sizeof depfile, "%s.d", temp) >= (int)sizeof depfile ||
      snprintf(notes_path, sizeof notes_path, "%s.err", temp) >=
          (int)sizeof notes_path)
    return cuemu__report(CUEMU_CACHE, "the cache folder's path is too long: %s",
                         dir);
  cuemu_cache_build b = {built, depfile, temp, NULL, NULL};
  /* File times come from the coarse clock: compare with it. */
  struct timespec since;
  clock_gettime(CLOCK_REALTIME_COARSE, &since);
  int saved = store ? capture_stderr(notes_path) : -1;
  cuemu_status st = build(data, &b);
  size_t nnotes = 0;
  char *notes = saved >= 0 ? release_stderr(saved, notes_path, &nnotes) : NULL;
  if (saved >= 0 && !notes)
    store = 0; /* what the build said is lost: a hit could not say it */
  if (st == CUEMU_SUCCESS) {
    if (file_install(built, output) != 0) {
      int err = errno;
      st = cuemu__report(CUEMU_IO_ERROR, "cannot write %s: %s", output,
                         strerror(err));
    } else if (store && cache_store(dir, key, built, depfile, b.skip,
                                    b.search, &since, notes, nnotes) != 0) {
      /* The output is there; only later builds lose the cache. */
      cuemu__driver_say("note",
                        "%s was not stored in the cache %s (a header changed "
                        "during the build, or the cache cannot be written)",
                        output, dir);
    }
  }
  free(notes);
  unlink(depfile);
  unlink(built);
  return st;
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
  if (cuemu_cache_dir(dir, sizeof dir) != CUEMU_SUCCESS) {
    /* No usable cache: build in a private folder, and say so. */
    char message[PATH_MAX + 128];
    snprintf(message, sizeof message, "%s", cuemu_last_message());
    const char *tmpdir = getenv("TMPDIR");
    char priv[PATH_MAX];
    snprintf(priv, sizeof priv, "%s/cuemu-build-XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(priv))
      return cuemu__report(CUEMU_CACHE,
                           "%s, and no private folder can be made: %s",
                           message, strerror(errno));
    if (use_cache)
      cuemu__driver_say("note", "%s; building without the cache", message);
    cuemu_status st = build_and_install(priv, key, output, 0, build, data);
    rmdir(priv);
    return st;
  }
  if (!use_cache)
    return build_and_install(dir, key, output, 0, build, data);
  if (cache_fetch(dir, key, output) == 1) {
    if (hit)
      *hit = 1;
    return CUEMU_SUCCESS;
  }
  char lock[PATH_MAX + 40];
  int fd = lock_key(dir, key, lock, sizeof lock);
  /* Another build of this key may have finished while this one waited. */
  if (fd >= 0 && cache_fetch(dir, key, output) == 1) {
    close(fd);
    if (hit)
      *hit = 1;
    return CUEMU_SUCCESS;
  }
  sweep(dir);
  cuemu_status st = build_and_install(dir, key, output, 1, build, data);
  if (fd >= 0) {
    /* Removed while held: a build that opens the path afterwards makes a new
     * lock, but finds the entry first. */
    unlink(lock);
    close(fd);
  }
  return st;
}
