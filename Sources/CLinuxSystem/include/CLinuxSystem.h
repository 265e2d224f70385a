// Checked prototypes for the few Linux calls that Swift's Glibc module does not show, and the
// async-signal-safe pieces of morsetorch's cancellation. Only the LinuxSystem module uses it.
#ifndef CLINUXSYSTEM_H
#define CLINUXSYSTEM_H

#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>

/// A one-way flag with a semaphore: fired at most once, from any thread or a signal handler.
typedef struct {
  atomic_int fired;
  sem_t semaphore;
} morse_event;

/// sem_init: an event that has not fired. Returns 0, or -1 with errno.
int morse_event_init(morse_event *event);
/// sem_destroy.
void morse_event_destroy(morse_event *event);
/// Sets the flag and posts the semaphore once; async-signal-safe. Returns 1 if this call fired.
int morse_event_fire(morse_event *event);
/// Whether the event has fired (acquire ordering).
int morse_event_is_fired(const morse_event *event);
/// sem_clockwait(CLOCK_MONOTONIC) until the absolute `deadline`, or until fired; 0 when woken
/// by the post (which is passed on to the next waiter), -1 with errno ETIMEDOUT or EINTR.
int morse_event_wait_monotonic(morse_event *event, const struct timespec *deadline);
/// sem_wait, passing the post on; 0, or -1 with errno EINTR.
int morse_event_wait(morse_event *event);

/// pidfd_open(2) through syscall(2), so it works with any C library and statically linked;
/// -1 with errno ENOSYS on kernels before 5.3.
int morse_pidfd_open(pid_t pid);
/// pidfd_send_signal(2) through syscall(2); -1 with errno ENOSYS on kernels before 5.1.
int morse_pidfd_send_signal(int pidfd, int signal);

/// pipe2(O_CLOEXEC): both ends close-on-exec from the start; 0, or -1 with errno.
int morse_pipe_cloexec(int ends[2]);

/// accept4(SOCK_CLOEXEC); the new descriptor, or -1 with errno.
int morse_accept_cloexec(int listener);
/// getsockopt(SO_PEERCRED): the process and user at the other end; 0, or -1 with errno.
int morse_peer_credentials(int socket, pid_t *pid, uid_t *uid);

/// Whether the current disposition of `signal` is SIG_IGN (1), not (0), or -1 with errno.
int morse_signal_is_ignored(int signal);
/// Installs `handler` for `signal` with SA_RESTART and an empty mask, saving the previous
/// action in `previous`; 0, or -1 with errno.
int morse_signal_install(int signal, void (*handler)(int), struct sigaction *previous);
/// Puts back an action saved by morse_signal_install.
int morse_signal_restore(int signal, const struct sigaction *previous);

/// Whether descriptor `fd` is on sysfs (fstatfs's f_type is SYSFS_MAGIC): 1, 0, or -1 with
/// errno.
int morse_is_on_sysfs(int fd);

#endif
