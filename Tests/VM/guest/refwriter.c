// refwriter: the smallest honest Morse sender, as a yardstick for timing in the test VM.
//
// Writes VALUE / 0 to a sysfs `brightness` file at absolute CLOCK_MONOTONIC deadlines
// (clock_nanosleep with TIMER_ABSTIME, so errors do not accumulate), following the ITU
// timeline: dot 1 unit, dash 3, gap inside a letter 1, between letters 3, between words 7.
// Whatever jitter it shows is what the emulated machine itself adds; morsetorch is judged
// side by side with it.
//
// Usage: refwriter BRIGHTNESS_PATH UNIT_MS VALUE TEXT
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *code_for(char c) {
  static const char *letters[26] = {
      ".-",   "-...", "-.-.", "-..",  ".",    "..-.", "--.",  "....", "..",
      ".---", "-.-",  ".-..", "--",   "-.",   "---",  ".--.", "--.-", ".-.",
      "...",  "-",    "..-",  "...-", ".--",  "-..-", "-.--", "--.."};
  static const char *digits[10] = {"-----", ".----", "..---", "...--", "....-",
                                   ".....", "-....", "--...", "---..", "----."};
  c = (char)toupper((unsigned char)c);
  if (c >= 'A' && c <= 'Z') return letters[c - 'A'];
  if (c >= '0' && c <= '9') return digits[c - '0'];
  return NULL;
}

static void write_value(int fd, const char *text) {
  if (pwrite(fd, text, strlen(text), 0) < 0) {
    fprintf(stderr, "refwriter: write %s: %s\n", text, strerror(errno));
    exit(1);
  }
}

static void sleep_until(int64_t deadline_ns) {
  struct timespec ts = {deadline_ns / 1000000000, deadline_ns % 1000000000};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: refwriter BRIGHTNESS_PATH UNIT_MS VALUE TEXT\n");
    return 64;
  }
  int fd = open(argv[1], O_WRONLY);
  if (fd < 0) {
    fprintf(stderr, "refwriter: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  int64_t unit = atoll(argv[2]) * 1000000LL;
  const char *on = argv[3];
  const char *text = argv[4];

  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  int64_t t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  int pending_gap = 0;  // units of silence owed before the next mark
  int started = 0;
  for (const char *c = text; *c; c++) {
    if (*c == ' ') {
      if (started) pending_gap = 7;
      continue;
    }
    const char *code = code_for(*c);
    if (!code) {
      fprintf(stderr, "refwriter: no Morse code for '%c'\n", *c);
      return 65;
    }
    if (started && pending_gap < 3) pending_gap = 3;
    for (const char *mark = code; *mark; mark++) {
      t += pending_gap * unit;
      sleep_until(t);
      write_value(fd, on);
      t += (*mark == '-' ? 3 : 1) * unit;
      sleep_until(t);
      write_value(fd, "0");
      pending_gap = 1;
      started = 1;
    }
  }
  return 0;
}
