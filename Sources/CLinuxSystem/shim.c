#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int morse_event_init(morse_event *event) {
  atomic_init(&event->fired, 0);
  return sem_init(&event->semaphore, 0, 0);
}

void morse_event_destroy(morse_event *event) { sem_destroy(&event->semaphore); }

int morse_event_fire(morse_event *event) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&event->fired, &expected, 1)) return 0;
  sem_post(&event->semaphore);
  return 1;
}

int morse_event_is_fired(const morse_event *event) {
  return atomic_load_explicit((atomic_int *)&event->fired, memory_order_acquire);
}

int morse_event_wait_monotonic(morse_event *event, const struct timespec *deadline) {
  if (sem_clockwait(&event->semaphore, CLOCK_MONOTONIC, deadline) == 0) {
    // The one post a firing makes: hand it on to any other waiter.
    sem_post(&event->semaphore);
    return 0;
  }
  return -1;
}

int morse_event_wait(morse_event *event) {
  if (sem_wait(&event->semaphore) == 0) {
    sem_post(&event->semaphore);
    return 0;
  }
  return -1;
}

int morse_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int morse_pidfd_send_signal(int pidfd, int signal) {
  return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

#include <fcntl.h>

int morse_pipe_cloexec(int ends[2]) { return pipe2(ends, O_CLOEXEC); }

#include <sys/socket.h>

int morse_accept_cloexec(int listener) { return accept4(listener, NULL, NULL, SOCK_CLOEXEC); }

int morse_peer_credentials(int socket, pid_t *pid, uid_t *uid) {
  struct ucred credentials;
  socklen_t length = sizeof credentials;
  if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  return 0;
}

int morse_signal_is_ignored(int signal) {
  struct sigaction current;
  if (sigaction(signal, NULL, &current) != 0) return -1;
  return current.sa_handler == SIG_IGN;
}

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

#include <linux/magic.h>
#include <sys/vfs.h>

int morse_is_on_sysfs(int fd) {
  struct statfs status;
  if (fstatfs(fd, &status) == -1) return -1;
  return status.f_type == SYSFS_MAGIC;
}
