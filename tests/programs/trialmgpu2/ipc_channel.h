// A Unix socket pair between a parent and a forked child: bytes, and file
// descriptors passed with SCM_RIGHTS.
#ifndef TRIALMGPU2_IPC_CHANNEL_H
#define TRIALMGPU2_IPC_CHANNEL_H
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstring>
#include <cstdio>
#include <cstdlib>

struct IpcChannel {
  int fd[2] = {-1, -1};
  bool open() { return socketpair(AF_UNIX, SOCK_STREAM, 0, fd) == 0; }
  int end(bool parent) const { return parent ? fd[0] : fd[1]; }
};

inline bool ipc_send(int sock, const void *data, size_t n, int pass_fd = -1) {
  struct msghdr msg = {};
  struct iovec iov;
  iov.iov_base = const_cast<void *>(data);
  iov.iov_len = n;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  char ctrl[CMSG_SPACE(sizeof(int))];
  if (pass_fd >= 0) {
    std::memset(ctrl, 0, sizeof ctrl);
    msg.msg_control = ctrl;
    msg.msg_controllen = sizeof ctrl;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
  }
  return sendmsg(sock, &msg, 0) == (ssize_t)n;
}

inline bool ipc_recv(int sock, void *data, size_t n, int *got_fd = nullptr) {
  struct msghdr msg = {};
  struct iovec iov;
  iov.iov_base = data;
  iov.iov_len = n;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  char ctrl[CMSG_SPACE(sizeof(int))];
  msg.msg_control = ctrl;
  msg.msg_controllen = sizeof ctrl;
  size_t done = 0;
  ssize_t r = recvmsg(sock, &msg, MSG_WAITALL);
  if (r <= 0) return false;
  done = (size_t)r;
  if (got_fd) {
    *got_fd = -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
        std::memcpy(got_fd, CMSG_DATA(c), sizeof(int));
  }
  while (done < n) {
    r = read(sock, (char *)data + done, n - done);
    if (r <= 0) return false;
    done += (size_t)r;
  }
  return true;
}

inline int ipc_wait_child(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
#endif // TRIALMGPU2_IPC_CHANNEL_H
