// Signal dispositions: installing, restoring and asking about handlers (SignalCatcher, Signals).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <string.h>

int morse_signal_is_ignored(int signal) {
  struct sigaction current;
  if (sigaction(signal, NULL, &current) != 0) return -1;
  return current.sa_handler == SIG_IGN;
}

// SA_RESTART for every caught signal, on purpose. No wait in morsetorch may rely on EINTR to
// end: a process-directed signal runs its handler on any thread that does not block it, not
// necessarily the one that waits, and a signal that comes just before a blocking call would be
// missed. So a wait that must end on a signal waits for an event the handler fires itself
// (sem_clockwait, or poll(2) on the event's eventfd; see OneShotEvent), or tries again on a
// short period against such an event (the tickets lock). Restarting everything else spares
// the many calls that cannot take an EINTR well (stdio's writes behind print(), the Swift
// runtime's own) from ever seeing one.
int morse_signal_install(int signal, void (*handler)(int), struct sigaction *previous) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return sigaction(signal, &action, previous);
}

int morse_signal_restore(int signal, const struct sigaction *previous) {
  return sigaction(signal, previous, NULL);
}

int morse_signal_ignore(int signal) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_IGN;
  sigemptyset(&action.sa_mask);
  return sigaction(signal, &action, NULL);
}
