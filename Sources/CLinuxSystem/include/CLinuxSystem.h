// Checked prototypes for the few Linux calls that Swift's Glibc module does not show, and the
// async-signal-safe pieces of morsetorch's cancellation. Only the LinuxSystem module uses it.
#ifndef CLINUXSYSTEM_H
#define CLINUXSYSTEM_H

#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>

/// A one-way flag with a semaphore and an eventfd: fired at most once, from any thread or a
/// signal handler. The eventfd becomes readable when it fires, so poll(2) can wait for it
/// beside other descriptors.
typedef struct {
  atomic_int fired;
  sem_t semaphore;
  int descriptor;
} morse_event;

/// sem_init and eventfd(EFD_CLOEXEC | EFD_NONBLOCK): an event that has not fired. Returns 0,
/// or -1 with errno (the descriptor is -1 if only the eventfd could not be made).
int morse_event_init(morse_event *event);
/// sem_destroy, and closes the eventfd.
void morse_event_destroy(morse_event *event);
/// Sets the flag, posts the semaphore once and makes the eventfd readable; async-signal-safe.
/// Returns 1 if this call fired.
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
/// action in `previous`; 0, or -1 with errno. (Why SA_RESTART: see shim.c.)
int morse_signal_install(int signal, void (*handler)(int), struct sigaction *previous);
/// Opens `path` beneath the directory `directory` without following any symlink on the way
/// (`openat2(2)` with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS; where the
/// kernel lacks it, one component at a time with O_NOFOLLOW). `..`, `.`, an absolute path and
/// empty components are refused with EXDEV. Returns the descriptor, or -1 with errno set.
int morse_open_beneath(int directory, const char *path, int flags, mode_t mode);

/// Puts back an action saved by morse_signal_install.
int morse_signal_restore(int signal, const struct sigaction *previous);

/// Whether descriptor `fd` is on sysfs (fstatfs's f_type is SYSFS_MAGIC): 1, 0, or -1 with
/// errno.
int morse_is_on_sysfs(int fd);

/// A GPIO chip, from GPIO_GET_CHIPINFO_IOCTL (names cut to 31 bytes, always terminated).
typedef struct {
  char name[32];
  char label[32];
  unsigned int lines;
} morse_gpio_chip;

/// A GPIO line, from GPIO_V2_GET_LINEINFO_IOCTL: `flags` are the uAPI v2 line flags.
typedef struct {
  char name[32];
  char consumer[32];
  unsigned int offset;
  unsigned long long flags;
} morse_gpio_line;

/// A line event (uAPI v2): the kernel's timestamp in ns, whether the edge was rising
/// (inactive to active), and the line's event sequence number.
typedef struct {
  unsigned long long timestamp_ns;
  int rising;
  unsigned int sequence;
} morse_gpio_event;

/// GPIO_GET_CHIPINFO_IOCTL on chip descriptor `fd`: 0, or -1 with errno.
int morse_gpio_chip_info(int fd, morse_gpio_chip *chip);
/// GPIO_V2_GET_LINEINFO_IOCTL for line `offset`: 0, or -1 with errno.
int morse_gpio_line_info(int fd, unsigned int offset, morse_gpio_line *line);
/// GPIO_V2_GET_LINE_IOCTL for the one line `offset` with `flags` (uAPI v2), as `consumer`;
/// an output starts at `initial` (1 active, 0 inactive); an input with edge flags gets an
/// event buffer of `events` (0: the kernel's default). Returns the line's descriptor
/// (close-on-exec), or -1 with errno.
int morse_gpio_request(int fd, unsigned int offset, const char *consumer,
                       unsigned long long flags, int initial, unsigned int events);
/// GPIO_V2_LINE_SET_VALUES_IOCTL on a requested line: 1 active, 0 inactive. 0, or -1.
int morse_gpio_set(int line_fd, int active);
/// GPIO_V2_LINE_GET_VALUES_IOCTL: 1 active, 0 inactive, or -1 with errno.
int morse_gpio_get(int line_fd);
/// Reads one line event: 1, 0 at end of file, or -1 with errno (EAGAIN if non-blocking and
/// none is queued).
int morse_gpio_read_event(int line_fd, morse_gpio_event *event);

/// prctl(PR_SET_TIMERSLACK) for the calling thread: 0, or -1 with errno.
int morse_set_timer_slack(unsigned long nanoseconds);
/// The calling thread's timer slack in ns (prctl(PR_GET_TIMERSLACK)), or -1 with errno.
long morse_timer_slack(void);
/// pthread_setschedparam(SCHED_FIFO, priority) for the calling thread: 0, or an errno value.
int morse_use_fifo(int priority);
/// mlockall(MCL_CURRENT | MCL_ONFAULT): 0, or -1 with errno.
int morse_lock_resident_memory(void);

/// The width in columns of the terminal on `fd` (ioctl TIOCGWINSZ), or 0 if unknown.
int morse_terminal_columns(int fd);

/// setvbuf(stdout, NULL, _IOLBF, 0): stdio's standard output (Swift's `print`) flushed at
/// every line, also into a pipe. (Swift 6 will not name C's `stdout` global.)
void morse_line_buffer_stdout(void);

/// Sends `length` bytes of `message` as one datagram to the AF_UNIX socket at `path` (a
/// syslog socket such as /dev/log): 0, or -1 with errno.
int morse_send_datagram(const char *path, const char *message, size_t length);

#endif
