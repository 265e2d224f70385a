// serialline (built by morsetorch-benchmark with cc -O2): a serial port's RTS in
// `morsetorch-benchmark serial`.
//
//   serialline watch PORT
//       samples RTS as the kernel holds it for PORT (TIOCMGET, every 50 us, at SCHED_FIFO 20
//       when allowed) until SIGTERM; prints "ready" once sampling, then one "NS LEVEL" line
//       per change (CLOCK_MONOTONIC) at the end. It holds the port at speed 0 meanwhile, so
//       that the senders' opens move no line, and puts its settings back after.
//   serialline key PORT STEP_NS...
//       the floor: RTS raised and dropped by TIOCMBIS/TIOCMBIC at absolute CLOCK_MONOTONIC
//       deadlines (clock_nanosleep TIMER_ABSTIME), the steps alternating on/off from on;
//       RTS dropped at the end.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;
static void stop(int signal) { (void)signal; stopping = 1; }

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int open_port(const char *path) {
  int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    perror(path);
    exit(69);
  }
  return fd;
}

static int watch(const char *path) {
  int fd = open_port(path);
  struct termios found, zero;
  if (tcgetattr(fd, &found) != 0) {
    perror("tcgetattr");
    return 69;
  }
  zero = found;
  cfsetospeed(&zero, B0);
  cfsetispeed(&zero, B0);
  tcsetattr(fd, TCSANOW, &zero);
  struct sched_param param = {.sched_priority = 20};
  sched_setscheduler(0, SCHED_FIFO, &param);
  signal(SIGTERM, stop);
  size_t capacity = 1 << 16, count = 0;
  int64_t *times = malloc(capacity * sizeof *times);
  char *levels = malloc(capacity);
  int last = -1;
  printf("ready\n");
  fflush(stdout);
  struct timespec pause = {0, 50000};
  while (!stopping) {
    int bits = 0;
    if (ioctl(fd, TIOCMGET, &bits) != 0) break;
    int level = (bits & TIOCM_RTS) != 0;
    if (level != last && count < capacity) {
      times[count] = now_ns();
      levels[count++] = (char)level;
      last = level;
    }
    nanosleep(&pause, NULL);
  }
  tcsetattr(fd, TCSANOW, &found);
  close(fd);
  for (size_t i = 0; i < count; i++) printf("%lld %d\n", (long long)times[i], levels[i]);
  return 0;
}

static void advance(struct timespec *deadline, long long nanoseconds) {
  deadline->tv_sec += nanoseconds / 1000000000LL;
  deadline->tv_nsec += nanoseconds % 1000000000LL;
  if (deadline->tv_nsec >= 1000000000L) {
    deadline->tv_sec += 1;
    deadline->tv_nsec -= 1000000000L;
  }
}

static int key(const char *path, int count, char **steps) {
  int fd = open_port(path);
  int rts = TIOCM_RTS;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  for (int index = 0; index < count; index++) {
    if (index > 0) {
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
      }
    }
    if (ioctl(fd, index % 2 == 0 ? TIOCMBIS : TIOCMBIC, &rts) != 0) {
      perror("TIOCMBIS");
      return 74;
    }
    advance(&deadline, atoll(steps[index]));
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
  }
  int status = ioctl(fd, TIOCMBIC, &rts);
  close(fd);
  return status == 0 ? 0 : 74;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "watch") == 0) return watch(argv[2]);
  if (argc >= 4 && strcmp(argv[1], "key") == 0) return key(argv[2], argc - 3, argv + 3);
  fprintf(stderr, "usage: %s watch PORT | key PORT STEP_NS...\n", argv[0]);
  return 64;
}
