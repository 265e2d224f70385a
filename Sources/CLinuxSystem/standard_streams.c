// The standard streams: the terminal's size and line-buffered standard output (StandardStreams).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <stdio.h>
#include <sys/ioctl.h>

int morse_terminal_columns(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) == -1) return 0;
  return size.ws_col;
}

int morse_terminal_rows(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) == -1) return 0;
  return size.ws_row;
}

void morse_line_buffer_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
