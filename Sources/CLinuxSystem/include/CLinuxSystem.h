// Checked prototypes for the few Linux calls that Swift's Glibc module does not show, and the
// async-signal-safe pieces of morsetorch's cancellation, in one section per C file. LinuxSystem
// uses it, and GPIODriver and ReceiveSources for their devices' ioctls.
#ifndef CLINUXSYSTEM_H
#define CLINUXSYSTEM_H

#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>

// one_shot_event.c

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

// process.c

/// pidfd_open(2) through syscall(2), so it works with any C library and statically linked;
/// -1 with errno ENOSYS on kernels before 5.3.
int morse_pidfd_open(pid_t pid);
/// pidfd_send_signal(2) through syscall(2); -1 with errno ENOSYS on kernels before 5.1.
int morse_pidfd_send_signal(int pidfd, int signal);

/// The process's argv and (in `count`) argc as the C library gave them to the constructors
/// before main; NULL and 0 if it gave none.
char **morse_saved_arguments(int *count);

// files.c

/// Opens `path` beneath the directory `directory` without following any symlink on the way
/// (`openat2(2)` with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS; where the
/// kernel lacks it, one component at a time with O_NOFOLLOW). `..`, `.`, an absolute path and
/// empty components are refused with EXDEV. Returns the descriptor, or -1 with errno set.
int morse_open_beneath(int directory, const char *path, int flags, mode_t mode);

/// Whether descriptor `fd` is on sysfs (fstatfs's f_type is SYSFS_MAGIC): 1, 0, or -1 with
/// errno.
int morse_is_on_sysfs(int fd);

/// pipe2(O_CLOEXEC): both ends close-on-exec from the start; 0, or -1 with errno.
int morse_pipe_cloexec(int ends[2]);
/// fcntl(F_SETPIPE_SZ): the pipe holds about `bytes` (rounded up to a page); its capacity, or
/// -1 with errno.
int morse_pipe_set_capacity(int fd, int bytes);
/// waitpid(WNOHANG): 1 with the raw status in `*status` if `pid` has ended, 0 if it runs,
/// -1 with errno.
int morse_child_ended(int pid, int *status);

// credentials.c

/// A user to act as: the user and group IDs and the supplementary groups.
typedef struct {
  uid_t uid;
  gid_t gid;
  const gid_t *groups;
  size_t count;
} morse_user;

/// morse_open_beneath with the file-system IDs and groups of `user` and no capability in
/// effect, on a thread of its own: the kernel decides whether that user may open the file
/// (permission bits, ACLs), and the real, effective and saved IDs stay the caller's, giving
/// `user` no handle on this process. The descriptor, or -1 with errno. Needs CAP_SETUID and
/// CAP_SETGID (root).
int morse_open_beneath_as(
  const morse_user *user, int directory, const char *path, int flags, mode_t mode);
/// faccessat2(AT_EACCESS) of `path` for `mode` as `user` (as morse_open_beneath_as acts); 0,
/// or -1 with errno.
int morse_access_as(const morse_user *user, const char *path, int mode);

// sockets.c

/// accept4(SOCK_CLOEXEC); the new descriptor, or -1 with errno.
int morse_accept_cloexec(int listener);
/// getsockopt(SO_PEERCRED): the process and user at the other end; 0, or -1 with errno.
int morse_peer_credentials(int socket, pid_t *pid, uid_t *uid);

/// Sends `length` bytes of `message` as one datagram to the AF_UNIX socket at `path` (a
/// syslog socket such as /dev/log): 0, or -1 with errno.
int morse_send_datagram(const char *path, const char *message, size_t length);

// signals.c

/// Whether the current disposition of `signal` is SIG_IGN (1), not (0), or -1 with errno.
int morse_signal_is_ignored(int signal);
/// Installs `handler` for `signal` with SA_RESTART and an empty mask, saving the previous
/// action in `previous`; 0, or -1 with errno. (Why SA_RESTART: see signals.c.)
int morse_signal_install(int signal, void (*handler)(int), struct sigaction *previous);

/// Puts back an action saved by morse_signal_install.
int morse_signal_restore(int signal, const struct sigaction *previous);
/// Sets `signal` to be ignored (SIG_IGN), which discards it if it is pending; 0, or -1 with
/// errno.
int morse_signal_ignore(int signal);

// timing_priority.c

/// prctl(PR_SET_TIMERSLACK) for the calling thread: 0, or -1 with errno.
int morse_set_timer_slack(unsigned long nanoseconds);
/// The calling thread's timer slack in ns (prctl(PR_GET_TIMERSLACK)), or -1 with errno.
long morse_timer_slack(void);
/// pthread_setschedparam(SCHED_FIFO, priority) for the calling thread: 0, or an errno value.
int morse_use_fifo(int priority);
/// mlockall(MCL_CURRENT | MCL_ONFAULT): 0, or -1 with errno.
int morse_lock_resident_memory(void);

// standard_streams.c

/// The width in columns of the terminal on `fd` (ioctl TIOCGWINSZ), or 0 if unknown.
int morse_terminal_columns(int fd);

/// The height in rows of the terminal on `fd` (ioctl TIOCGWINSZ), or 0 if unknown.
int morse_terminal_rows(int fd);

/// setvbuf(stdout, NULL, _IOLBF, 0): stdio's standard output (Swift's `print`) flushed at
/// every line, also into a pipe. (Swift 6 will not name C's `stdout` global.)
void morse_line_buffer_stdout(void);

// gpio.c

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

// serial.c

/// The modem-control and modem-status lines of a tty, as TIOCMGET gives them (TIOCM_*).
enum {
  MORSE_SERIAL_DTR = 0x002,
  MORSE_SERIAL_RTS = 0x004,
  MORSE_SERIAL_CTS = 0x020,
  MORSE_SERIAL_DCD = 0x040,
  MORSE_SERIAL_RI = 0x080,
  MORSE_SERIAL_DSR = 0x100,
  /// The 16550's loopback (MCR bit 4): RTS to CTS, DTR to DSR, OUT1 to RI, OUT2 to DCD.
  MORSE_SERIAL_LOOP = 0x8000,
};

/// What the kernel keeps of a tty's settings that decides what an open and a close do to
/// DTR and RTS: an open raises both unless the speed is 0 (B0); a close drops both if
/// HUPCL is set.
typedef struct {
  int speed_is_zero;
  int hangs_up_on_close;
} morse_serial_settings;

/// The kernel's counts of modem-status changes since the port was opened (TIOCGICOUNT).
typedef struct {
  int cts, dsr, rng, dcd;
} morse_serial_counts;

/// TIOCMGET: the lines (MORSE_SERIAL_*) in `*lines`. 0, or -1 with errno (ENOTTY or EINVAL
/// for a tty with no modem lines: a pty, a console).
int morse_serial_lines(int fd, int *lines);
/// TIOCMBIS (`on`) or TIOCMBIC: raises or drops the lines in `mask`. 0, or -1 with errno.
int morse_serial_switch(int fd, int mask, int on);
/// TIOCGEXCL: 1 if the tty is in exclusive mode, 0 if not, -1 with errno.
int morse_serial_is_exclusive(int fd);
/// tcgetattr: the settings that decide what an open and a close do. 0, or -1 with errno.
int morse_serial_settings_of(int fd, morse_serial_settings *settings);
/// TIOCGICOUNT. 0, or -1 with errno.
int morse_serial_counts_of(int fd, morse_serial_counts *counts);
/// TIOCMIWAIT: waits until one of the status lines in `mask` changes. 0, or -1 with errno
/// (EINTR when a signal comes first).
int morse_serial_wait_change(int fd, int mask);
/// Readies the calling thread to wait in TIOCMIWAIT until woken by morse_serial_wake_waiter:
/// installs (once per process) a handler without SA_RESTART for the signal that wakes it, and
/// unblocks that signal here. Returns the thread's id, for morse_serial_wake_waiter.
int morse_serial_waiter_prepare(void);
/// Ends a TIOCMIWAIT of the thread `thread` (from morse_serial_waiter_prepare) with EINTR, if
/// it is in one; a signal that comes before the wait is lost, so the caller tries again until
/// the waiter says it has stopped. 0, or -1 with errno.
int morse_serial_wake_waiter(int thread);

// video.c

/// A V4L2 device node, from VIDIOC_QUERYCAP: the driver, the card, where it sits, and the
/// node's own capabilities (`device_caps` where the driver gives them, else `capabilities`).
typedef struct {
  char driver[16];
  char card[32];
  char bus[32];
  unsigned int capabilities;
} morse_video_device;

/// The picture a capture device gives (single-planar): size, pixel format (a fourcc), the
/// bytes of one row of its first plane, and of one whole image.
typedef struct {
  unsigned int width;
  unsigned int height;
  unsigned int fourcc;
  unsigned int bytes_per_line;
  unsigned int image_size;
} morse_video_picture;

/// A filled buffer, from VIDIOC_DQBUF: which one, the bytes in it, the driver's frame
/// counter, its V4L2_BUF_FLAG_* flags, and the kernel's timestamp in ns.
typedef struct {
  unsigned int index;
  unsigned int bytes_used;
  unsigned int sequence;
  unsigned int flags;
  long long timestamp_ns;
} morse_video_buffer;

/// A control, from VIDIOC_QUERYCTRL: its type (V4L2_CTRL_TYPE_*), range, default, flags.
typedef struct {
  unsigned int id;
  unsigned int type;
  char name[32];
  int minimum;
  int maximum;
  int step;
  int default_value;
  unsigned int flags;
} morse_video_control;

/// The V4L2 numbers morsetorch uses (the kernel's, checked against its headers in video.c).
enum {
  MORSE_VIDEO_CAP_VIDEO_CAPTURE = 0x00000001,
  MORSE_VIDEO_CAP_VIDEO_CAPTURE_MPLANE = 0x00001000,
  MORSE_VIDEO_CAP_STREAMING = 0x04000000,
  MORSE_VIDEO_BUF_FLAG_ERROR = 0x00000040,
  MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MASK = 0x0000e000,
  MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MONOTONIC = 0x00002000,
  MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_MASK = 0x00070000,
  MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_SOE = 0x00010000,
  MORSE_VIDEO_CID_AUTOGAIN = 0x00980912,
  MORSE_VIDEO_CID_EXPOSURE_AUTO = 0x009a0901,
  MORSE_VIDEO_CID_EXPOSURE_ABSOLUTE = 0x009a0902,
  MORSE_VIDEO_CID_EXPOSURE_AUTO_PRIORITY = 0x009a0903,
  MORSE_VIDEO_EXPOSURE_MANUAL = 1,
  MORSE_VIDEO_CTRL_FLAG_DISABLED = 0x0001,
  MORSE_VIDEO_CTRL_FLAG_READ_ONLY = 0x0004,
  MORSE_VIDEO_CTRL_FLAG_INACTIVE = 0x0010,
  MORSE_VIDEO_CTRL_TYPE_MENU = 3,
};

/// VIDIOC_QUERYCAP: 0, or -1 with errno (ENOTTY: not a V4L2 device).
int morse_video_query(int fd, morse_video_device *device);
/// VIDIOC_ENUM_FMT of the capture queue: the fourcc of format `index`; 0, or -1 with errno
/// (EINVAL past the last).
int morse_video_format_at(int fd, unsigned int index, unsigned int *fourcc);
/// VIDIOC_G_FMT of the capture queue: 0, or -1 with errno.
int morse_video_get_format(int fd, morse_video_picture *picture);
/// VIDIOC_S_FMT of the capture queue (progressive), `picture` updated to what the driver
/// chose: 0, or -1 with errno (EBUSY while another process streams).
int morse_video_set_format(int fd, morse_video_picture *picture);
/// VIDIOC_G_PARM: the time per frame (0/0 when the driver says nothing); 0, or -1.
int morse_video_get_interval(int fd, unsigned int *numerator, unsigned int *denominator);
/// VIDIOC_S_PARM with that time per frame, updated to what the driver chose; 0, or -1
/// (ENOTTY or EINVAL where the rate cannot be set).
int morse_video_set_interval(int fd, unsigned int *numerator, unsigned int *denominator);
/// VIDIOC_REQBUFS of `count` memory-mapped buffers: how many the driver gave, or -1.
int morse_video_request_buffers(int fd, unsigned int count);
/// VIDIOC_QUERYBUF and mmap(PROT_READ, MAP_SHARED) of buffer `index`: 0, or -1.
int morse_video_map_buffer(int fd, unsigned int index, void **start, size_t *length);
/// munmap of a mapped buffer.
void morse_video_unmap_buffer(void *start, size_t length);
/// VIDIOC_QBUF of memory-mapped buffer `index`: 0, or -1 with errno.
int morse_video_queue(int fd, unsigned int index);
/// VIDIOC_DQBUF: 0, or -1 with errno (EAGAIN on a non-blocking descriptor with none ready).
int morse_video_dequeue(int fd, morse_video_buffer *buffer);
/// VIDIOC_STREAMON (1) or VIDIOC_STREAMOFF (0) of the capture queue: 0, or -1 with errno.
int morse_video_stream(int fd, int on);
/// VIDIOC_QUERYCTRL for `id`: 0, or -1 with errno (EINVAL: the device has no such control).
int morse_video_query_control(int fd, unsigned int id, morse_video_control *control);
/// VIDIOC_QUERYMENU: whether menu control `id` offers `value` (1, 0).
int morse_video_menu_has(int fd, unsigned int id, int value);
/// VIDIOC_G_CTRL: 0, or -1 with errno.
int morse_video_get_control(int fd, unsigned int id, int *value);
/// VIDIOC_S_CTRL: 0, or -1 with errno.
int morse_video_set_control(int fd, unsigned int id, int value);

#endif
