// udpsend PORT SECONDS DATAGRAM...: sends each DATAGRAM (\e written for ESC) to 127.0.0.1:PORT
// from one connected UDP socket, as cwdaemon's clients do, then prints each reply that comes
// within SECONDS of the last one sent as "reply NS TEXT" (CLOCK_MONOTONIC ns; CR and LF as
// \r and \n), so a scenario can time it against serialwatch's samples.
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: udpsend PORT SECONDS DATAGRAM...\n");
    return 2;
  }
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
    perror("udpsend: connect");
    return 1;
  }
  for (int i = 3; i < argc; i++) {
    char buffer[512];
    size_t length = 0;
    for (const char *p = argv[i]; *p && length < sizeof buffer; p++) {
      if (p[0] == '\\' && p[1] == 'e') {
        buffer[length++] = 0x1b;
        p++;
      } else {
        buffer[length++] = *p;
      }
    }
    if (send(fd, buffer, length, 0) < 0) perror("udpsend: send");
    printf("sent %lld %s\n", now_ns(), argv[i]);
    fflush(stdout);
  }
  int wait_ms = atoi(argv[2]) * 1000;
  struct pollfd poll_fd = {.fd = fd, .events = POLLIN};
  while (poll(&poll_fd, 1, wait_ms) > 0) {
    char reply[512];
    ssize_t got = recv(fd, reply, sizeof reply, 0);
    if (got < 0) break;
    printf("reply %lld ", now_ns());
    for (ssize_t j = 0; j < got; j++) {
      if (reply[j] == '\r') printf("\\r");
      else if (reply[j] == '\n') printf("\\n");
      else putchar(reply[j]);
    }
    putchar('\n');
    fflush(stdout);
  }
  return 0;
}
