/*
 * stderr_capture.cuh: what a piece of a test program writes on stderr
 * (the checkers' reports, leak reports), for the program to check; the
 * text is echoed on stdout too.
 */
#ifndef CUEMU_TEST_PROGRAMS_STDERR_CAPTURE_CUH
#define CUEMU_TEST_PROGRAMS_STDERR_CAPTURE_CUH

#include <cstdio>
#include <cstdlib>
#include <string>
#include <fcntl.h>
#include <unistd.h>

/* Runs `run` with stderr in a temporary file; returns what was written. */
template <typename Run> static std::string stderr_of(Run run) {
  char path[] = "/tmp/stderr_capture.XXXXXX";
  int fd = mkstemp(path);
  std::fflush(stderr);
  int saved_fd = dup(2);
  dup2(fd, 2);
  run();
  std::fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  std::string text;
  char buf[4096];
  lseek(fd, 0, SEEK_SET);
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    text.append(buf, static_cast<size_t>(n));
  close(fd);
  unlink(path);
  std::fputs(text.c_str(), stdout);
  return text;
}

#endif
