// floor BRIGHTNESS_FILE ON_VALUE STEP_NS... (built by morsetorch-benchmark with cc -O2)
//
// The floor for user space in `morsetorch-benchmark compare`: the least a program can do to
// send a timeline on an LED. The steps alternate on/off starting with on; each begins at an
// absolute CLOCK_MONOTONIC deadline (clock_nanosleep TIMER_ABSTIME), so errors never add up;
// the brightness file stays open and each edge is one pwrite at offset 0 (a plain file is
// truncated first, as sysfs would replace the value). The LED is switched off at the end.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int set(int fd, const char *value) {
  size_t length = strlen(value);
  if (ftruncate(fd, 0) != 0 && errno != EINVAL) return -1;  // sysfs: EINVAL, nothing to do
  return pwrite(fd, value, length, 0) == (ssize_t)length ? 0 : -1;
}

static void advance(struct timespec *deadline, long long nanoseconds) {
  deadline->tv_sec += nanoseconds / 1000000000LL;
  deadline->tv_nsec += nanoseconds % 1000000000LL;
  if (deadline->tv_nsec >= 1000000000L) {
    deadline->tv_sec += 1;
    deadline->tv_nsec -= 1000000000L;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s BRIGHTNESS_FILE ON_VALUE STEP_NS...\n", argv[0]);
    return 64;
  }
  int fd = open(argv[1], O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    perror(argv[1]);
    return 69;
  }
  char on[32];
  snprintf(on, sizeof on, "%s\n", argv[2]);
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  for (int index = 3; index < argc; index++) {
    if (index > 3) {
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
      }
    }
    if (set(fd, (index - 3) % 2 == 0 ? on : "0\n") != 0) {
      perror("write");
      return 74;
    }
    advance(&deadline, atoll(argv[index]));
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
  }
  int status = set(fd, "0\n");
  close(fd);
  return status == 0 ? 0 : 74;
}
