// The process's own arguments, saved before main, and other processes by pidfd (ProcessHandle).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int morse_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int morse_pidfd_send_signal(int pidfd, int signal) {
  return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

// The command line, as glibc hands it to every constructor (static or dynamic; musl passes
// nothing, so only with glibc). Swift's CommandLine is not enough: in a static executable the
// runtime finds argv by reading /proc/self/maps, which takes a descriptor; with none free
// (ulimit -n 3, the standard streams holding all) it finds no arguments at all, and the tool
// would say "no command given". Saved here, they need no descriptor.
static int morse_argument_count = 0;
static char **morse_argument_values = NULL;

#ifdef __GLIBC__
__attribute__((constructor)) static void morse_save_arguments(int argc, char **argv) {
  if (argc > 0 && argv) {
    morse_argument_count = argc;
    morse_argument_values = argv;
  }
}
#endif

char **morse_saved_arguments(int *count) {
  *count = morse_argument_count;
  return morse_argument_values;
}
