// A tty's modem lines: TIOCMGET/TIOCMBIS/TIOCMBIC, exclusive mode, the kept settings that
// decide what open and close do to DTR and RTS, and modem-status changes (SerialDriver).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
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

// Waking a thread out of TIOCMIWAIT, which has no timeout and ignores poll(2): a signal aimed
// at that thread alone (tgkill), whose handler has no SA_RESTART (with it the kernel restarts
// the wait). SIGURG: its default is to be ignored, no tty raises it, and the tool catches
// every signal whose default ends the process, so no catcher of its own is displaced.
static void morse_serial_wake_handler(int signal) { (void)signal; }

static void morse_serial_install_wake(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = morse_serial_wake_handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGURG, &action, NULL);
}

int morse_serial_waiter_prepare(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, morse_serial_install_wake);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, SIGURG);
  pthread_sigmask(SIG_UNBLOCK, &only, NULL);
  return (int)syscall(SYS_gettid);
}

int morse_serial_wake_waiter(int thread) {
  return (int)syscall(SYS_tgkill, (int)getpid(), thread, SIGURG);
}
