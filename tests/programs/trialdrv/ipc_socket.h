// ipc_socket.h: descriptors passed over a named Unix socket (SCM_RIGHTS).
#pragma once
// Passing file descriptors over a named Unix socket (SCM_RIGHTS).
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cstring>
#include <vector>
#include <string>

struct IpcListener { int fd = -1; std::string path; };

inline int ipc_listen(IpcListener &l, const std::string &path) {
  l.path = path;
  unlink(path.c_str());
  l.fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{}; addr.sun_family = AF_UNIX;
  strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (bind(l.fd, (sockaddr *)&addr, sizeof addr) != 0) return -1;
  return listen(l.fd, 8);
}

inline int ipc_connect(const std::string &path) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{}; addr.sun_family = AF_UNIX;
  strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  for (int tries = 0; tries < 500; ++tries) {
    if (connect(fd, (sockaddr *)&addr, sizeof addr) == 0) return fd;
    usleep(10000);
  }
  return -1;
}

inline bool ipc_send_fds(int sock, const std::vector<int> &fds, int payload) {
  msghdr msg{};
  iovec iov{&payload, sizeof payload};
  msg.msg_iov = &iov; msg.msg_iovlen = 1;
  std::vector<char> ctrl(CMSG_SPACE(sizeof(int) * fds.size()));
  msg.msg_control = ctrl.data(); msg.msg_controllen = ctrl.size();
  cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
  memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  return sendmsg(sock, &msg, 0) == sizeof payload;
}

inline bool ipc_recv_fds(int sock, std::vector<int> &fds, size_t n, int &payload) {
  msghdr msg{};
  iovec iov{&payload, sizeof payload};
  msg.msg_iov = &iov; msg.msg_iovlen = 1;
  std::vector<char> ctrl(CMSG_SPACE(sizeof(int) * n));
  msg.msg_control = ctrl.data(); msg.msg_controllen = ctrl.size();
  if (recvmsg(sock, &msg, 0) != sizeof payload) return false;
  cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (!c || c->cmsg_type != SCM_RIGHTS) return false;
  fds.resize(n);
  memcpy(fds.data(), CMSG_DATA(c), sizeof(int) * n);
  return true;
}
