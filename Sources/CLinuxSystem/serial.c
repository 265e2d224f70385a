// A tty's modem lines: TIOCMGET/TIOCMBIS/TIOCMBIC, exclusive mode, the kept settings that
// decide what open and close do to DTR and RTS, and modem-status changes (SerialDriver).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <sys/ioctl.h>
#include <termios.h>
#include <linux/serial.h>

int morse_serial_lines(int fd, int *lines) { return ioctl(fd, TIOCMGET, lines) == -1 ? -1 : 0; }

int morse_serial_switch(int fd, int mask, int on) {
  return ioctl(fd, on ? TIOCMBIS : TIOCMBIC, &mask) == -1 ? -1 : 0;
}

int morse_serial_is_exclusive(int fd) {
  int exclusive = 0;
  if (ioctl(fd, TIOCGEXCL, &exclusive) == -1) return -1;
  return exclusive ? 1 : 0;
}

int morse_serial_settings_of(int fd, morse_serial_settings *settings) {
  struct termios t;
  if (tcgetattr(fd, &t) == -1) return -1;
  settings->speed_is_zero = cfgetospeed(&t) == B0;
  settings->hangs_up_on_close = (t.c_cflag & HUPCL) != 0;
  return 0;
}

int morse_serial_counts_of(int fd, morse_serial_counts *counts) {
  struct serial_icounter_struct c;
  if (ioctl(fd, TIOCGICOUNT, &c) == -1) return -1;
  counts->cts = c.cts;
  counts->dsr = c.dsr;
  counts->rng = c.rng;
  counts->dcd = c.dcd;
  return 0;
}

int morse_serial_wait_change(int fd, int mask) {
  return ioctl(fd, TIOCMIWAIT, (unsigned long)mask) == -1 ? -1 : 0;
}
