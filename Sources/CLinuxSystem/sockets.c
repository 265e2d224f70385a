// Unix sockets: the stop socket (UnixSocket) and datagrams to the system log (SystemLog).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int morse_accept_cloexec(int listener) { return accept4(listener, NULL, NULL, SOCK_CLOEXEC); }

int morse_peer_credentials(int socket, pid_t *pid, uid_t *uid) {
  struct ucred credentials;
  socklen_t length = sizeof credentials;
  if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  return 0;
}

int morse_send_datagram(const char *path, const char *message, size_t length) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  strcpy(address.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd == -1) return -1;
  ssize_t sent;
  do {
    sent = sendto(fd, message, length, MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&address, sizeof address);
  } while (sent == -1 && errno == EINTR);
  int saved = errno;
  close(fd);
  errno = saved;
  return sent == -1 ? -1 : 0;
}
