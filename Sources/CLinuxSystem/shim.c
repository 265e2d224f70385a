#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/eventfd.h>
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
  event->descriptor = -1;
  if (sem_init(&event->semaphore, 0, 0) != 0) return -1;
  event->descriptor = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  return event->descriptor == -1 ? -1 : 0;
}

void morse_event_destroy(morse_event *event) {
  sem_destroy(&event->semaphore);
  if (event->descriptor >= 0) close(event->descriptor);
}

int morse_event_fire(morse_event *event) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&event->fired, &expected, 1)) return 0;
  sem_post(&event->semaphore);
  if (event->descriptor >= 0) {
    uint64_t one = 1;
    int saved = errno;
    // Never blocks (EFD_NONBLOCK), and one write cannot overflow the counter.
    (void)!write(event->descriptor, &one, sizeof one);
    errno = saved;
  }
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

#include <linux/openat2.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static int is_plain_component(const char *start, size_t length) {
  if (length == 0) return 0;
  if (length == 1 && start[0] == '.') return 0;
  if (length == 2 && start[0] == '.' && start[1] == '.') return 0;
  return 1;
}

// Component by component: every directory on the way with O_PATH | O_DIRECTORY | O_NOFOLLOW,
// the last one with the caller's flags and O_NOFOLLOW (for kernels before 5.6).
static int open_beneath_walking(int directory, const char *path, int flags, mode_t mode) {
  int current = directory;
  const char *start = path;
  char component[256];
  while (1) {
    const char *slash = strchr(start, '/');
    size_t length = slash ? (size_t)(slash - start) : strlen(start);
    if (!is_plain_component(start, length) || length >= sizeof component) {
      if (current != directory) close(current);
      errno = is_plain_component(start, length) ? ENAMETOOLONG : EXDEV;
      return -1;
    }
    memcpy(component, start, length);
    component[length] = 0;
    int next;
    if (slash) {
      next = openat(current, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    } else {
      next = openat(current, component, flags | O_NOFOLLOW | O_CLOEXEC, mode);
    }
    int saved = errno;
    if (current != directory) close(current);
    errno = saved;
    if (next == -1 || !slash) return next;
    current = next;
    start = slash + 1;
  }
}

int morse_open_beneath(int directory, const char *path, int flags, mode_t mode) {
  if (path[0] == '/' || path[0] == 0) {
    errno = EXDEV;
    return -1;
  }
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC);
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  int fd;
  do {
    fd = (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
  } while (fd == -1 && errno == EINTR);
  // ENOSYS: a kernel before 5.6; EPERM: a seccomp filter that does not know openat2.
  if (fd != -1 || (errno != ENOSYS && errno != EPERM)) return fd;
  return open_beneath_walking(directory, path, flags, mode);
}

#include <linux/magic.h>
#include <sys/vfs.h>

int morse_is_on_sysfs(int fd) {
  struct statfs status;
  if (fstatfs(fd, &status) == -1) return -1;
  return status.f_type == SYSFS_MAGIC;
}

#include <linux/gpio.h>
#include <sys/ioctl.h>

static void copy_name(char *to, const char *from) {
  strncpy(to, from, 31);
  to[31] = 0;
}

int morse_gpio_chip_info(int fd, morse_gpio_chip *chip) {
  struct gpiochip_info info;
  memset(&info, 0, sizeof info);
  if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) == -1) return -1;
  copy_name(chip->name, info.name);
  copy_name(chip->label, info.label);
  chip->lines = info.lines;
  return 0;
}

int morse_gpio_line_info(int fd, unsigned int offset, morse_gpio_line *line) {
  struct gpio_v2_line_info info;
  memset(&info, 0, sizeof info);
  info.offset = offset;
  if (ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, &info) == -1) return -1;
  copy_name(line->name, info.name);
  copy_name(line->consumer, info.consumer);
  line->offset = info.offset;
  line->flags = info.flags;
  return 0;
}

int morse_gpio_request(int fd, unsigned int offset, const char *consumer,
                       unsigned long long flags, int initial, unsigned int events) {
  struct gpio_v2_line_request request;
  memset(&request, 0, sizeof request);
  request.offsets[0] = offset;
  request.num_lines = 1;
  strncpy(request.consumer, consumer, GPIO_MAX_NAME_SIZE - 1);
  request.config.flags = flags;
  request.event_buffer_size = events;
  if (flags & GPIO_V2_LINE_FLAG_OUTPUT) {
    request.config.num_attrs = 1;
    request.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
    request.config.attrs[0].attr.values = initial ? 1 : 0;
    request.config.attrs[0].mask = 1;
  }
  if (ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &request) == -1) return -1;
  return request.fd;
}

int morse_gpio_set(int line_fd, int active) {
  struct gpio_v2_line_values values = {.bits = active ? 1 : 0, .mask = 1};
  return ioctl(line_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &values) == -1 ? -1 : 0;
}

int morse_gpio_get(int line_fd) {
  struct gpio_v2_line_values values = {.bits = 0, .mask = 1};
  if (ioctl(line_fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &values) == -1) return -1;
  return (int)(values.bits & 1);
}

int morse_gpio_read_event(int line_fd, morse_gpio_event *event) {
  struct gpio_v2_line_event raw;
  ssize_t count;
  do {
    count = read(line_fd, &raw, sizeof raw);
  } while (count == -1 && errno == EINTR);
  if (count <= 0) return (int)count;
  if ((size_t)count != sizeof raw) {
    errno = EIO;
    return -1;
  }
  event->timestamp_ns = raw.timestamp_ns;
  event->rising = raw.id == GPIO_V2_LINE_EVENT_RISING_EDGE;
  event->sequence = raw.line_seqno;
  return 1;
}

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif

int morse_set_timer_slack(unsigned long nanoseconds) {
  return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0) == -1 ? -1 : 0;
}

long morse_timer_slack(void) { return prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0); }

int morse_use_fifo(int priority) {
  struct sched_param parameter = {.sched_priority = priority};
  return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter);
}

int morse_lock_resident_memory(void) { return mlockall(MCL_CURRENT | MCL_ONFAULT); }

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

#include <sys/ioctl.h>

int morse_terminal_columns(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) == -1) return 0;
  return size.ws_col;
}

void morse_line_buffer_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

#include <sys/un.h>

int morse_send_datagram(const char *path, const char *message, size_t length) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  strcpy(address.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd == -1) return -1;
  ssize_t sent;
  do {
    sent = sendto(fd, message, length, MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&address, sizeof address);
  } while (sent == -1 && errno == EINTR);
  int saved = errno;
  close(fd);
  errno = saved;
  return sent == -1 ? -1 : 0;
}

#include <linux/videodev2.h>

_Static_assert(MORSE_VIDEO_CAP_VIDEO_CAPTURE == V4L2_CAP_VIDEO_CAPTURE, "V4L2");
_Static_assert(MORSE_VIDEO_CAP_VIDEO_CAPTURE_MPLANE == V4L2_CAP_VIDEO_CAPTURE_MPLANE, "V4L2");
_Static_assert(MORSE_VIDEO_CAP_STREAMING == V4L2_CAP_STREAMING, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_ERROR == V4L2_BUF_FLAG_ERROR, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MASK == V4L2_BUF_FLAG_TIMESTAMP_MASK, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MONOTONIC == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
               "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_MASK == V4L2_BUF_FLAG_TSTAMP_SRC_MASK, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_SOE == V4L2_BUF_FLAG_TSTAMP_SRC_SOE, "V4L2");
_Static_assert(MORSE_VIDEO_CID_AUTOGAIN == V4L2_CID_AUTOGAIN, "V4L2");
_Static_assert(MORSE_VIDEO_CID_EXPOSURE_AUTO == V4L2_CID_EXPOSURE_AUTO, "V4L2");
_Static_assert(MORSE_VIDEO_CID_EXPOSURE_ABSOLUTE == V4L2_CID_EXPOSURE_ABSOLUTE, "V4L2");
_Static_assert(MORSE_VIDEO_CID_EXPOSURE_AUTO_PRIORITY == V4L2_CID_EXPOSURE_AUTO_PRIORITY, "V4L2");
_Static_assert(MORSE_VIDEO_EXPOSURE_MANUAL == V4L2_EXPOSURE_MANUAL, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_FLAG_DISABLED == V4L2_CTRL_FLAG_DISABLED, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_FLAG_READ_ONLY == V4L2_CTRL_FLAG_READ_ONLY, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_FLAG_INACTIVE == V4L2_CTRL_FLAG_INACTIVE, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_TYPE_MENU == V4L2_CTRL_TYPE_MENU, "V4L2");

/// ioctl(2), again after a signal.
static int video_ioctl(int fd, unsigned long request, void *argument) {
  int result;
  do {
    result = ioctl(fd, request, argument);
  } while (result == -1 && errno == EINTR);
  return result;
}

static void copy_text(char *to, size_t size, const __u8 *from) {
  strncpy(to, (const char *)from, size - 1);
  to[size - 1] = 0;
}

int morse_video_query(int fd, morse_video_device *device) {
  struct v4l2_capability capability;
  memset(&capability, 0, sizeof capability);
  if (video_ioctl(fd, VIDIOC_QUERYCAP, &capability) == -1) return -1;
  copy_text(device->driver, sizeof device->driver, capability.driver);
  copy_text(device->card, sizeof device->card, capability.card);
  copy_text(device->bus, sizeof device->bus, capability.bus_info);
  device->capabilities = (capability.capabilities & V4L2_CAP_DEVICE_CAPS)
                             ? capability.device_caps
                             : capability.capabilities;
  return 0;
}

int morse_video_format_at(int fd, unsigned int index, unsigned int *fourcc) {
  struct v4l2_fmtdesc format;
  memset(&format, 0, sizeof format);
  format.index = index;
  format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (video_ioctl(fd, VIDIOC_ENUM_FMT, &format) == -1) return -1;
  *fourcc = format.pixelformat;
  return 0;
}

static void read_picture(const struct v4l2_format *format, morse_video_picture *picture) {
  picture->width = format->fmt.pix.width;
  picture->height = format->fmt.pix.height;
  picture->fourcc = format->fmt.pix.pixelformat;
  picture->bytes_per_line = format->fmt.pix.bytesperline;
  picture->image_size = format->fmt.pix.sizeimage;
}

int morse_video_get_format(int fd, morse_video_picture *picture) {
  struct v4l2_format format;
  memset(&format, 0, sizeof format);
  format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (video_ioctl(fd, VIDIOC_G_FMT, &format) == -1) return -1;
  read_picture(&format, picture);
  return 0;
}

int morse_video_set_format(int fd, morse_video_picture *picture) {
  struct v4l2_format format;
  memset(&format, 0, sizeof format);
  format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  format.fmt.pix.width = picture->width;
  format.fmt.pix.height = picture->height;
  format.fmt.pix.pixelformat = picture->fourcc;
  format.fmt.pix.field = V4L2_FIELD_NONE;
  if (video_ioctl(fd, VIDIOC_S_FMT, &format) == -1) return -1;
  read_picture(&format, picture);
  return 0;
}

int morse_video_get_interval(int fd, unsigned int *numerator, unsigned int *denominator) {
  struct v4l2_streamparm parameters;
  memset(&parameters, 0, sizeof parameters);
  parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (video_ioctl(fd, VIDIOC_G_PARM, &parameters) == -1) return -1;
  *numerator = parameters.parm.capture.timeperframe.numerator;
  *denominator = parameters.parm.capture.timeperframe.denominator;
  return 0;
}

int morse_video_set_interval(int fd, unsigned int *numerator, unsigned int *denominator) {
  struct v4l2_streamparm parameters;
  memset(&parameters, 0, sizeof parameters);
  parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  parameters.parm.capture.timeperframe.numerator = *numerator;
  parameters.parm.capture.timeperframe.denominator = *denominator;
  if (video_ioctl(fd, VIDIOC_S_PARM, &parameters) == -1) return -1;
  *numerator = parameters.parm.capture.timeperframe.numerator;
  *denominator = parameters.parm.capture.timeperframe.denominator;
  return 0;
}

int morse_video_request_buffers(int fd, unsigned int count) {
  struct v4l2_requestbuffers request;
  memset(&request, 0, sizeof request);
  request.count = count;
  request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  request.memory = V4L2_MEMORY_MMAP;
  if (video_ioctl(fd, VIDIOC_REQBUFS, &request) == -1) return -1;
  return (int)request.count;
}

int morse_video_map_buffer(int fd, unsigned int index, void **start, size_t *length) {
  struct v4l2_buffer buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.index = index;
  buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  buffer.memory = V4L2_MEMORY_MMAP;
  if (video_ioctl(fd, VIDIOC_QUERYBUF, &buffer) == -1) return -1;
  void *mapped = mmap(NULL, buffer.length, PROT_READ, MAP_SHARED, fd, buffer.m.offset);
  if (mapped == MAP_FAILED) return -1;
  *start = mapped;
  *length = buffer.length;
  return 0;
}

void morse_video_unmap_buffer(void *start, size_t length) { munmap(start, length); }

int morse_video_queue(int fd, unsigned int index) {
  struct v4l2_buffer buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.index = index;
  buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  buffer.memory = V4L2_MEMORY_MMAP;
  return video_ioctl(fd, VIDIOC_QBUF, &buffer) == -1 ? -1 : 0;
}

int morse_video_dequeue(int fd, morse_video_buffer *filled) {
  struct v4l2_buffer buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  buffer.memory = V4L2_MEMORY_MMAP;
  if (video_ioctl(fd, VIDIOC_DQBUF, &buffer) == -1) return -1;
  filled->index = buffer.index;
  filled->bytes_used = buffer.bytesused;
  filled->sequence = buffer.sequence;
  filled->flags = buffer.flags;
  filled->timestamp_ns =
      (long long)buffer.timestamp.tv_sec * 1000000000LL + (long long)buffer.timestamp.tv_usec * 1000LL;
  return 0;
}

int morse_video_stream(int fd, int on) {
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  return video_ioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type) == -1 ? -1 : 0;
}

int morse_video_query_control(int fd, unsigned int id, morse_video_control *control) {
  struct v4l2_queryctrl query;
  memset(&query, 0, sizeof query);
  query.id = id;
  if (video_ioctl(fd, VIDIOC_QUERYCTRL, &query) == -1) return -1;
  control->id = query.id;
  control->type = query.type;
  copy_text(control->name, sizeof control->name, query.name);
  control->minimum = query.minimum;
  control->maximum = query.maximum;
  control->step = query.step;
  control->default_value = query.default_value;
  control->flags = query.flags;
  return 0;
}

int morse_video_menu_has(int fd, unsigned int id, int value) {
  struct v4l2_querymenu menu;
  memset(&menu, 0, sizeof menu);
  menu.id = id;
  menu.index = (__u32)value;
  return video_ioctl(fd, VIDIOC_QUERYMENU, &menu) == 0;
}

int morse_video_get_control(int fd, unsigned int id, int *value) {
  struct v4l2_control control = {.id = id, .value = 0};
  if (video_ioctl(fd, VIDIOC_G_CTRL, &control) == -1) return -1;
  *value = control.value;
  return 0;
}

int morse_video_set_control(int fd, unsigned int id, int value) {
  struct v4l2_control control = {.id = id, .value = value};
  return video_ioctl(fd, VIDIOC_S_CTRL, &control) == -1 ? -1 : 0;
}
