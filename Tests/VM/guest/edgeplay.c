// edgeplay: plays edges on a gpio-sim input line by setting its pull, at absolute deadlines.
//
//   edgeplay PULL_PATH [-i] < EDGES
//
// EDGES is the text `morsetorch send --dry-run --edges` writes: one edge per line, SECONDS
// LEVEL. Level 1 writes "pull-up" to PULL_PATH (the simulated line goes high), 0
// "pull-down"; -i inverts them (a key to ground). The first edge is played 200 ms after the
// start, the others at their times after it, on CLOCK_MONOTONIC (clock_nanosleep with
// TIMER_ABSTIME, so errors do not add up). Each edge is logged to stdout as
// "edge T_NS LEVEL DEADLINE_NS": the time the write returned, and the time it was due.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: edgeplay PULL_PATH [-i] < EDGES\n");
    return 64;
  }
  int invert = argc > 2 && strcmp(argv[2], "-i") == 0;
  int fd = open(argv[1], O_WRONLY);
  if (fd < 0) {
    perror(argv[1]);
    return 1;
  }
  char line[256];
  int64_t start = now_ns() + 200000000, first = -1;
  while (fgets(line, sizeof line, stdin)) {
    double seconds;
    int level;
    if (line[0] == '#' || sscanf(line, "%lf %d", &seconds, &level) != 2) continue;
    int64_t at = (int64_t)(seconds * 1e9 + 0.5);
    if (first < 0) first = at;
    int64_t deadline = start + (at - first);
    struct timespec ts = {deadline / 1000000000, deadline % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
    const char *pull = (level != 0) != invert ? "pull-up" : "pull-down";
    if (pwrite(fd, pull, strlen(pull), 0) < 0) {
      perror("write");
      return 1;
    }
    printf("edge %lld %d %lld\n", (long long)now_ns(), level, (long long)deadline);
  }
  return 0;
}
