/*
 * cuemu_command.c: finding and running compilers, the one process runner of
 * cuemu (see <cuemu/cuemu_cache.h>).
 */
#define _GNU_SOURCE
#include <cuemu/cuemu_cache.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cuemu_report.h"
#include "cuemu_driver.h"

extern char **environ;

static cuemu_status found(const char *real, char *path, size_t size) {
  if (strlen(real) >= size)
    return cuemu__report(CUEMU_INVALID_VALUE, "the path %s is too long", real);
  memcpy(path, real, strlen(real) + 1);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_command_find(const char *name, char *path, size_t size) {
  char real[PATH_MAX];
  if (!name || !*name || !path)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_command_find: a name and a buffer are required");
  if (strchr(name, '/')) {
    if (access(name, X_OK) == 0 && realpath(name, real))
      return found(real, path, size);
    return cuemu__report(CUEMU_IO_ERROR, "%s: %s", name, strerror(errno));
  }
  const char *dirs = getenv("PATH");
  if (!dirs)
    dirs = "/usr/bin:/bin";
  while (*dirs) {
    const char *end = strchr(dirs, ':');
    size_t len = end ? (size_t)(end - dirs) : strlen(dirs);
    char candidate[PATH_MAX];
    if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, dirs,
                 name) < (int)sizeof candidate &&
        access(candidate, X_OK) == 0 && realpath(candidate, real))
      return found(real, path, size);
    dirs += len + (end ? 1 : 0);
  }
  return cuemu__report(CUEMU_IO_ERROR, "%s: not found on PATH", name);
}

cuemu_status cuemu__command_start(const char *const *argv, const char *log,
                                  int *pid_out) {
  *pid_out = -1;
  if (!argv || !argv[0])
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_command_run: an argument vector is required");
  posix_spawn_file_actions_t fa, *actions = NULL;
  if (log) {
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    actions = &fa;
  }
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], actions, NULL, (char *const *)argv,
                        environ);
  if (actions)
    posix_spawn_file_actions_destroy(actions);
  if (rc != 0)
    return cuemu__report(CUEMU_IO_ERROR, "cannot run %s: %s", argv[0],
                         strerror(rc));
  *pid_out = (int)pid;
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__command_wait(int pid, int *exit_status) {
  int status;
  *exit_status = -1;
  while (waitpid((pid_t)pid, &status, 0) < 0)
    if (errno != EINTR)
      return cuemu__report(CUEMU_IO_ERROR, "cannot wait for process %d: %s",
                           pid, strerror(errno));
  /* A compiler killed by a signal is a failed compile, not a missing one. */
  *exit_status =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_command_run(const char *const *argv, const char *log,
                               int *exit_status) {
  int ignored, pid;
  if (!exit_status)
    exit_status = &ignored;
  *exit_status = -1;
  cuemu_status st = cuemu__command_start(argv, log, &pid);
  if (st != CUEMU_SUCCESS)
    return st;
  return cuemu__command_wait(pid, exit_status);
}

int cuemu__command_first_line(const char *const *argv, char *line,
                              size_t size) {
  const char *tmp = getenv("TMPDIR");
  char out[PATH_MAX];
  if (size == 0 || snprintf(out, sizeof out, "%s/cuemu-command-XXXXXX",
                            tmp && *tmp ? tmp : "/tmp") >= (int)sizeof out)
    return -1;
  int fd = mkstemp(out);
  if (fd < 0)
    return -1;
  close(fd);
  int rc = -1, got = 0;
  line[0] = '\0';
  if (cuemu_command_run(argv, out, &rc) == CUEMU_SUCCESS && rc == 0) {
    FILE *f = fopen(out, "r");
    if (f && fgets(line, (int)size, f)) {
      line[strcspn(line, "\n")] = '\0';
      got = 1;
    }
    if (f)
      fclose(f);
  }
  unlink(out);
  return got ? 0 : -1;
}
