// serialwatch: a 16550's modem lines without morsetorch, to prove what the kernel does to them
// and to watch what a program does to them.
//
//   serialwatch facts PORT
//       what opening and closing do to DTR and RTS: the lines after each of a sequence of
//       opens, speed changes and closes (below), one record a step
//   serialwatch wake PORT
//       whether each change of CTS wakes a wait for it (TIOCMIWAIT), on a port wired RTS to
//       CTS outside the guest (below)
//   serialwatch speed PORT 0|9600
//       sets the speed the kernel keeps for PORT (stty -F PORT 0, which busybox's stty
//       refuses)
//   serialwatch watch PORT b0|b0+dtr|keep COMMAND...
//       holds PORT open (b0: its kept speed set to 0 first, so that no later open raises a
//       line; b0+dtr: then DTR raised, as a program that left it up; keep: as it is), puts the 16550 in loopback (RTS to CTS, DTR to DSR), runs
//       COMMAND, and samples the lines every 100 us until COMMAND ends; then says how it
//       ended, and puts the port back (loopback off, its settings as found)
//
// Output, one record a line (times in ns of CLOCK_MONOTONIC; LINES is a comma-separated list
// of the lines up among DTR RTS CTS DSR, or "-"):
//   step NAME speed=N hupcl=0|1 lines=LINES       facts: after each step
//   before T LINES                                 watch: before COMMAND starts
//   lines T LINES                                  watch: every change seen
//   exit T STATUS | signal T SIGNAL                watch: how COMMAND ended
//   after T LINES exclusive=0|1                    watch: after it ended
//   unwired                                        wake: CTS does not follow RTS
//   rts T up|down                                  wake: just before RTS is moved
//   woke T cts=N up|down                           wake: the wait ended; TIOCGICOUNT's CTS
//   child done|still waiting                       wake: whether six wakes came
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/serial.h>

// The 16550 loopback bit of TIOCMGET/TIOCMBIS (<asm/termbits.h> has it, glibc does not).
#ifndef TIOCM_LOOP
#define TIOCM_LOOP 0x8000
#endif

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void fail(const char *what) {
  fprintf(stderr, "serialwatch: %s: %s\n", what, strerror(errno));
  exit(1);
}

static int open_port(const char *path) {
  int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(path);
  return fd;
}

static int lines_of(int fd) {
  int bits = 0;
  if (ioctl(fd, TIOCMGET, &bits) == -1) fail("TIOCMGET");
  return bits & (TIOCM_DTR | TIOCM_RTS | TIOCM_CTS | TIOCM_DSR);
}

static const char *named(int bits) {
  static char text[32];
  text[0] = 0;
  const struct { int bit; const char *name; } all[] = {
      {TIOCM_DTR, "DTR"}, {TIOCM_RTS, "RTS"}, {TIOCM_CTS, "CTS"}, {TIOCM_DSR, "DSR"}};
  for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (!(bits & all[i].bit)) continue;
    if (text[0]) strcat(text, ",");
    strcat(text, all[i].name);
  }
  return text[0] ? text : "-";
}

static void set_speed(int fd, speed_t speed) {
  struct termios t;
  if (tcgetattr(fd, &t) == -1) fail("tcgetattr");
  cfsetospeed(&t, speed);
  cfsetispeed(&t, speed);
  if (tcsetattr(fd, TCSANOW, &t) == -1) fail("tcsetattr");
}

static void step(const char *name, int fd) {
  struct termios t;
  if (tcgetattr(fd, &t) == -1) fail("tcgetattr");
  int speed = cfgetospeed(&t) == B0 ? 0 : cfgetospeed(&t) == B9600 ? 9600 : -1;
  printf("step %s speed=%d hupcl=%d lines=%s\n", name, speed, (t.c_cflag & HUPCL) ? 1 : 0,
         named(lines_of(fd)));
}

static int facts(const char *path) {
  int fd = open_port(path);
  step("first-open", fd);  // the kernel's default settings: the open raised both
  set_speed(fd, B0);
  step("speed-0", fd);  // to B0: both dropped
  close(fd);
  fd = open_port(path);
  step("open-at-speed-0", fd);  // the kept speed 0: the open moved nothing
  int rts = TIOCM_RTS;
  if (ioctl(fd, TIOCMBIS, &rts) == -1) fail("TIOCMBIS");
  step("rts-raised", fd);
  close(fd);  // HUPCL: both dropped
  fd = open_port(path);
  step("reopen-after-hupcl", fd);
  set_speed(fd, B9600);
  step("speed-9600", fd);  // away from B0: both raised
  close(fd);
  fd = open_port(path);
  step("open-at-9600", fd);  // the open raised both again
  set_speed(fd, B0);  // leave the port as the next scenario expects to find it: speed 0
  close(fd);
  return 0;
}

static int watch(const char *path, const char *mode, char **command) {
  int fd = open_port(path);
  struct termios found;
  if (tcgetattr(fd, &found) == -1) fail("tcgetattr");
  if (strncmp(mode, "b0", 2) == 0) set_speed(fd, B0);
  if (strcmp(mode, "b0+dtr") == 0) {
    int dtr = TIOCM_DTR;
    if (ioctl(fd, TIOCMBIS, &dtr) == -1) fail("TIOCMBIS DTR");
  }
  int loop = TIOCM_LOOP;
  if (ioctl(fd, TIOCMBIS, &loop) == -1) fail("TIOCMBIS loop");
  int last = lines_of(fd);
  printf("before %lld %s\n", (long long)now_ns(), named(last));
  fflush(stdout);
  pid_t child = fork();
  if (child < 0) fail("fork");
  if (child == 0) {
    execvp(command[0], command);
    fail(command[0]);
  }
  int status = 0;
  struct timespec tick = {0, 100000};
  for (;;) {
    int bits = lines_of(fd);
    if (bits != last) {
      printf("lines %lld %s\n", (long long)now_ns(), named(bits));
      last = bits;
    }
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) fail("waitpid");
    nanosleep(&tick, NULL);
  }
  if (WIFEXITED(status)) printf("exit %lld %d\n", (long long)now_ns(), WEXITSTATUS(status));
  else printf("signal %lld %d\n", (long long)now_ns(), WTERMSIG(status));
  int exclusive = 0;
  ioctl(fd, TIOCGEXCL, &exclusive);
  printf("after %lld %s exclusive=%d\n", (long long)now_ns(), named(lines_of(fd)),
         exclusive ? 1 : 0);
  if (ioctl(fd, TIOCMBIC, &loop) == -1) fail("TIOCMBIC loop");
  if (tcsetattr(fd, TCSANOW, &found) == -1) fail("tcsetattr");
  close(fd);
  return 0;
}

// wake: whether a change of a status line wakes TIOCMIWAIT, as receive --serial waits. The
// port must be wired RTS to CTS outside the guest (no 16550 loopback: qemu raises no
// modem-status interrupt in it); "unwired" if CTS does not follow RTS. Otherwise a child waits
// for CTS with TIOCMIWAIT while RTS is toggled six times, 200 ms apart.
static int wake(const char *path) {
  int fd = open_port(path);
  int rts = TIOCM_RTS;
  struct timespec settle = {0, 50000000};
  int follows = 1;
  for (int up = 0; up <= 1; up++) {
    if (ioctl(fd, up ? TIOCMBIS : TIOCMBIC, &rts) == -1) fail("TIOCMBI*");
    nanosleep(&settle, NULL);
    follows &= ((lines_of(fd) & TIOCM_CTS) != 0) == up;
  }
  if (!follows) {
    printf("unwired\n");
    return 0;
  }
  pid_t child = fork();
  if (child < 0) fail("fork");
  if (child == 0) {
    for (int i = 0; i < 6; i++) {
      struct serial_icounter_struct c;
      if (ioctl(fd, TIOCMIWAIT, TIOCM_CTS) == -1) fail("TIOCMIWAIT");
      int64_t woke = now_ns();
      if (ioctl(fd, TIOCGICOUNT, &c) == -1) fail("TIOCGICOUNT");
      dprintf(1, "woke %lld cts=%d %s\n", (long long)woke, c.cts,
              (lines_of(fd) & TIOCM_CTS) ? "up" : "down");
    }
    _exit(0);
  }
  nanosleep(&settle, NULL);  // the child waiting
  for (int i = 0; i < 6; i++) {
    struct timespec pause = {0, 200000000};
    nanosleep(&pause, NULL);
    int up = i % 2 == 0 ? 0 : 1;
    dprintf(1, "rts %lld %s\n", (long long)now_ns(), up ? "up" : "down");
    if (ioctl(fd, up ? TIOCMBIS : TIOCMBIC, &rts) == -1) fail("TIOCMBI*");
  }
  struct timespec pause = {1, 0};
  nanosleep(&pause, NULL);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  dprintf(1, "child %s\n", WIFEXITED(status) ? "done" : "still waiting");
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "wake") == 0) return wake(argv[2]);
  if (argc == 4 && strcmp(argv[1], "speed") == 0) {
    int fd = open_port(argv[2]);
    set_speed(fd, strcmp(argv[3], "0") == 0 ? B0 : B9600);
    close(fd);
    return 0;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 3 && strcmp(argv[1], "facts") == 0) return facts(argv[2]);
  if (argc >= 5 && strcmp(argv[1], "watch") == 0 &&
      (strcmp(argv[3], "b0") == 0 || strcmp(argv[3], "b0+dtr") == 0 ||
       strcmp(argv[3], "keep") == 0))
    return watch(argv[2], argv[3], argv + 4);
  fprintf(stderr,
          "usage: serialwatch facts PORT | wake PORT | speed PORT 0|9600 | watch PORT b0|b0+dtr|keep COMMAND...\n");
  return 64;
}
