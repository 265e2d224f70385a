// gpioline: the GPIO character device (uAPI v2) without morsetorch, to prove the VM's GPIO
// plumbing (gpio-sim, the gpio_value trace, line events) on its own.
//
//   gpioline info CHIP                        the chip and each line, as the kernel reports
//   gpioline toggle CHIP OFFSET MS...         output: set the line 1, 0, 1, ... at MS after a
//                                             start 200 ms from now (absolute deadlines)
//   gpioline watch CHIP OFFSET COUNT TIMEOUT  input, both edges: the kernel's timestamps of
//                                             the first COUNT edges, or until TIMEOUT ms
//
// CHIP is a path (/dev/gpiochipN). Output, one record a line (times in ns of CLOCK_MONOTONIC,
// which is also the clock of line events without GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME):
//   chip NAME LABEL LINES
//   line OFFSET NAME CONSUMER FLAGS   NAME and CONSUMER "-" when empty; FLAGS comma-separated
//   requested T                       the line was granted
//   set DEADLINE_NS AFTER_NS VALUE    toggle: VALUE set for DEADLINE, the ioctl returned AFTER
//   event TIMESTAMP_NS rising|falling SEQNO LINE_SEQNO
//   released T
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void fail(const char *what) {
  fprintf(stderr, "gpioline: %s: %s\n", what, strerror(errno));
  exit(1);
}

static const char *or_dash(const char *text) { return text[0] ? text : "-"; }

static int info(int chip) {
  struct gpiochip_info chip_info;
  memset(&chip_info, 0, sizeof chip_info);
  if (ioctl(chip, GPIO_GET_CHIPINFO_IOCTL, &chip_info) < 0) fail("GPIO_GET_CHIPINFO_IOCTL");
  printf("chip %s %s %u\n", or_dash(chip_info.name), or_dash(chip_info.label), chip_info.lines);
  static const char *names[] = {"used", "active-low", "input", "output", "edge-rising",
                                "edge-falling", "open-drain", "open-source", "pull-up",
                                "pull-down", "bias-disabled", "clock-realtime"};
  for (unsigned offset = 0; offset < chip_info.lines; offset++) {
    struct gpio_v2_line_info line;
    memset(&line, 0, sizeof line);
    line.offset = offset;
    if (ioctl(chip, GPIO_V2_GET_LINEINFO_IOCTL, &line) < 0) fail("GPIO_V2_GET_LINEINFO_IOCTL");
    printf("line %u %s %s ", offset, or_dash(line.name), or_dash(line.consumer));
    const char *separator = "";
    for (unsigned bit = 0; bit < sizeof names / sizeof *names; bit++) {
      if (line.flags & (1ULL << bit)) {
        printf("%s%s", separator, names[bit]);
        separator = ",";
      }
    }
    printf("%s\n", separator[0] ? "" : "-");
  }
  return 0;
}

static int request(int chip, unsigned offset, uint64_t flags) {
  struct gpio_v2_line_request line;
  memset(&line, 0, sizeof line);
  line.offsets[0] = offset;
  line.num_lines = 1;
  strcpy(line.consumer, "gpioline");
  line.config.flags = flags;
  if (flags & GPIO_V2_LINE_FLAG_OUTPUT) {  // starts low
    line.config.num_attrs = 1;
    line.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
    line.config.attrs[0].attr.values = 0;
    line.config.attrs[0].mask = 1;
  }
  if (ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &line) < 0) fail("GPIO_V2_GET_LINE_IOCTL");
  printf("requested %lld\n", (long long)now_ns());
  fflush(stdout);
  return line.fd;
}

static int toggle(int chip, unsigned offset, int count, char **times_ms) {
  int line = request(chip, offset, GPIO_V2_LINE_FLAG_OUTPUT);
  int64_t start = now_ns() + 200000000;
  for (int i = 0; i < count; i++) {
    int64_t deadline = start + (int64_t)(atof(times_ms[i]) * 1e6 + 0.5);
    struct timespec ts = {deadline / 1000000000, deadline % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
    struct gpio_v2_line_values values = {.bits = (i + 1) % 2, .mask = 1};
    if (ioctl(line, GPIO_V2_LINE_SET_VALUES_IOCTL, &values) < 0) fail("SET_VALUES");
    printf("set %lld %lld %d\n", (long long)deadline, (long long)now_ns(), (i + 1) % 2);
  }
  close(line);
  printf("released %lld\n", (long long)now_ns());
  return 0;
}

static int watch(int chip, unsigned offset, int count, int timeout_ms) {
  int line = request(chip, offset, GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING |
                                       GPIO_V2_LINE_FLAG_EDGE_FALLING);
  int64_t end = now_ns() + (int64_t)timeout_ms * 1000000;
  for (int seen = 0; seen < count;) {
    int64_t left = end - now_ns();
    if (left <= 0) break;
    struct pollfd wait = {.fd = line, .events = POLLIN};
    int ready = poll(&wait, 1, (int)(left / 1000000) + 1);
    if (ready < 0 && errno != EINTR) fail("poll");
    if (ready <= 0) continue;
    struct gpio_v2_line_event events[16];
    ssize_t got = read(line, events, sizeof events);
    if (got < 0) fail("read");
    for (size_t i = 0; i < (size_t)got / sizeof *events; i++, seen++) {
      printf("event %llu %s %u %u\n", (unsigned long long)events[i].timestamp_ns,
             events[i].id == GPIO_V2_LINE_EVENT_RISING_EDGE ? "rising" : "falling",
             events[i].seqno, events[i].line_seqno);
    }
    fflush(stdout);
  }
  close(line);
  printf("released %lld\n", (long long)now_ns());
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: gpioline info|toggle|watch CHIP ...\n");
    return 64;
  }
  int chip = open(argv[2], O_RDWR | O_CLOEXEC);
  if (chip < 0) fail(argv[2]);
  if (strcmp(argv[1], "info") == 0) return info(chip);
  if (strcmp(argv[1], "toggle") == 0 && argc >= 5)
    return toggle(chip, (unsigned)atoi(argv[3]), argc - 4, argv + 4);
  if (strcmp(argv[1], "watch") == 0 && argc == 6)
    return watch(chip, (unsigned)atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
  fprintf(stderr, "gpioline: bad arguments\n");
  return 64;
}
