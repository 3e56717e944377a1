#pragma once
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstring>

// Sends an fd (SCM_RIGHTS) plus a small payload over a unix socket.
int send_fd(int sock, int fd, const void *data, size_t len);
int recv_fd(int sock, int *fd, void *data, size_t len);
