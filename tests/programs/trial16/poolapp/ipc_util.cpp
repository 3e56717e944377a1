#include "ipc_util.h"

int send_fd(int sock, int fd, const void *data, size_t len) {
  struct msghdr msg = {};
  struct iovec iov = {const_cast<void *>(data), len};
  char ctrl[CMSG_SPACE(sizeof(int))];
  memset(ctrl, 0, sizeof ctrl);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (fd >= 0) {
    msg.msg_control = ctrl;
    msg.msg_controllen = sizeof ctrl;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
  }
  return sendmsg(sock, &msg, 0) == (ssize_t)len ? 0 : -1;
}

int recv_fd(int sock, int *fd, void *data, size_t len) {
  struct msghdr msg = {};
  struct iovec iov = {data, len};
  char ctrl[CMSG_SPACE(sizeof(int))];
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = ctrl;
  msg.msg_controllen = sizeof ctrl;
  if (recvmsg(sock, &msg, 0) != (ssize_t)len) return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (fd) *fd = -1;
  if (c && c->cmsg_type == SCM_RIGHTS && fd) memcpy(fd, CMSG_DATA(c), sizeof(int));
  return 0;
}
