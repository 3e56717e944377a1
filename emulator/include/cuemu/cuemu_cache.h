/*
 * cuemu_cache.h: the compile cache and the compiler runner, shared by every
 * tool that builds something from sources: cuemu_compile() (cuemu-cc),
 * cuemu-run and the parity runner's host leg.
 *
 * This is public API rather than a private library of the tools because its
 * users live in three places (libcuemu itself, the tools and the installed
 * libcuemu_parity), because tools may use only public calls, and because the
 * cache must have exactly one implementation and one format on disk: a
 * second copy would be a second, subtly different notion of "unchanged".
 *
 * The cache is exact or it is not used. An entry is used only when every
 * file its build read still has the same contents and no header has
 * appeared that the build would now read instead; its checksum must match;
 * it must be a regular file owned by this user and writable by nobody else,
 * in a cache folder owned by this user and writable by nobody else.
 * Otherwise the entry is rebuilt (and replaced), or, when the folder itself
 * cannot be used, the build runs in a private temporary folder with a note
 * on stderr. Concurrent builds of one key build it once; temporary files
 * of builds that were killed are removed by later builds.
 *
 * The flow is always the same:
 *
 *   cuemu_hasher *h;
 *   cuemu_hasher_create(&h, "my-tool");       (hashes in cuemu's version)
 *   cuemu_hasher_add_string(h, ...);          (everything that can change
 *   cuemu_hasher_add_file_stamp(h, compiler);  the output)
 *   cuemu_hasher_add_context(h, argc, argv);
 *   cuemu_hasher_finish(h, &key);
 *   cuemu_cache_get(&key, output, 1, build, data, &hit);
 *
 * cuemu_cache_get() installs a cached copy at `output` when an entry exists
 * and every header its build read is unchanged; otherwise it calls `build`
 * to make the result in a temporary file, installs it at `output` and stores
 * it with the list of headers the build read (a make-style dependency file
 * that `build` writes, with -MD -MF). Entries are written to a temporary
 * file and renamed, so parallel processes and threads share the cache safely,
 * and a result is not stored when a header changed while it was built.
 *
 * Host code; every function may be called from any OS thread.
 */
#ifndef CUEMU_CACHE_H
#define CUEMU_CACHE_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Keys ------------------------------------------------------------------ */

/* A 128-bit key, as 32 hex digits and a terminating NUL. */
typedef struct cuemu_cache_key {
  char hex[33];
} cuemu_cache_key;

/* An incremental hash of everything that goes into a key (opaque). */
typedef struct cuemu_hasher cuemu_hasher;

/* Starts a key for `purpose` (a short name of the tool and the kind of
 * output, such as "cuemu-cc" or "cuemu-parity host"), which is hashed first,
 * together with CUEMU_VERSION: different tools and versions never share
 * entries. On success *out is owned by the caller until
 * cuemu_hasher_finish(). Returns INVALID_VALUE or OUT_OF_MEMORY. */
cuemu_status cuemu_hasher_create(cuemu_hasher **__cuemu_out, const char *purpose);

/* Adds `size` bytes. */
void cuemu_hasher_add(cuemu_hasher *h, const void *data, size_t size);

/* Adds a NUL-terminated string, with its terminator as a separator, so that
 * ("ab", "c") and ("a", "bc") give different keys. NULL adds "(null)". */
void cuemu_hasher_add_string(cuemu_hasher *h, const char *s);

/* Adds the identity of the file at `path` (typically a compiler, found with
 * cuemu_command_find()): the path, its size and its modification time, so
 * that upgrading the compiler is a miss. Returns IO_ERROR (and adds the path
 * alone) when the file cannot be examined. */
cuemu_status cuemu_hasher_add_file_stamp(cuemu_hasher *h, const char *path);

/* Adds what a compiler's output depends on besides its command and the
 * files it reads: the environment variables that move its search paths
 * (CPATH, C_INCLUDE_PATH, CPLUS_INCLUDE_PATH, OBJC_INCLUDE_PATH,
 * LIBRARY_PATH, COMPILER_PATH, GCC_EXEC_PREFIX) and, when one of the
 * `argc` words of `argv` (the user's options and files) names a relative
 * path, the working folder. Returns IO_ERROR when the working folder cannot
 * be named. */
cuemu_status cuemu_hasher_add_context(cuemu_hasher *h, int argc,
                                      const char *const *argv);

/* Writes the key and frees `h`. `key` may be NULL to abandon the hash; a
 * NULL `h` is accepted. */
void cuemu_hasher_finish(cuemu_hasher *h, cuemu_cache_key *key);

/* ---- The cache ------------------------------------------------------------- */

/* The cache folder, created if missing: $CUEMU_CACHE_DIR, else
 * $XDG_CACHE_HOME/cuemu, else ~/.cache/cuemu, else /tmp/cuemu-cache-UID.
 * Returns CACHE (with the folder and the reason in the message) when it
 * cannot be made, is not writable, is owned by another user or is writable
 * by others; INVALID_VALUE when `size` is too small for its path. */
cuemu_status cuemu_cache_dir(char *__cuemu_out, size_t size);

/* What cuemu_cache_get() hands its build callback. The paths are temporary
 * files in the cache folder, unique to this call; the callback writes the
 * result to `built` and the make-style dependency list to `depfile` (no
 * list: the result is used but not stored). It may create other files
 * whose names start with `temp` (and must remove them), and may set `skip`
 * to one dependency not to record, such as a generated source file, and
 * `search` to the folders the build searches for headers, in the order it
 * searches them (NULL-terminated): a header read from one of them under a
 * relative path N is then recorded together with N in the folders before
 * it, so that a header created there later (which would now be read
 * instead) is a miss. Both must stay valid until cuemu_cache_get()
 * returns. */
typedef struct cuemu_cache_build {
  const char *built;
  const char *depfile;
  const char *temp;
  const char *skip;
  const char *const *search;
} cuemu_cache_build;

/* Builds on a miss; returns CUEMU_SUCCESS when `build->built` holds the
 * result, otherwise a status whose message (cuemu_last_message(), or the
 * caller's own report) says why. */
typedef cuemu_status (*cuemu_cache_build_fn)(void *data,
                                             cuemu_cache_build *build);

/* Makes `output` (replaced through a rename, keeping the executable bit of
 * what was built) from the entry `key` when one exists and every header its
 * build read is unchanged (*hit = 1), else by calling `build` (*hit = 0) and
 * storing the result. With `use_cache` 0 the cache is neither read nor
 * written (temporary files still go to its folder, or to a private folder
 * when it cannot be used). A result that cannot be stored (a header changed
 * during the build, or the folder cannot be written) is still installed at
 * `output`, with a note on stderr. Returns the callback's status, CACHE
 * (not even a private folder can be made) or IO_ERROR. `hit` may be NULL. */
cuemu_status cuemu_cache_get(const cuemu_cache_key *key, const char *__cuemu_output,
                             int use_cache, cuemu_cache_build_fn build,
                             void *data, int *hit);

/* ---- Running compilers ----------------------------------------------------- */

/* Finds the program `name` as execvp() would (on $PATH unless it contains a
 * slash) and writes its real path (symbolic links resolved) to `path`.
 * Returns IO_ERROR when there is no such executable, INVALID_VALUE when
 * `size` is too small. */
cuemu_status cuemu_command_find(const char *name, char *path, size_t size);

/* Runs the NULL-terminated `argv` (argv[0] looked up on $PATH) and waits for
 * it. Its standard output and error go to the file `log` (created or
 * truncated), or are this process's own when `log` is NULL. *exit_status
 * gets its exit status, or 128 plus the signal that killed it. Returns
 * IO_ERROR when it could not be started (*exit_status is then -1). */
cuemu_status cuemu_command_run(const char *const *argv, const char *log,
                               int *exit_status);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_CACHE_H */
