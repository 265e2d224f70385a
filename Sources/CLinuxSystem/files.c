// Opening files beneath a directory, telling sysfs apart, close-on-exec pipes and their
// capacity, and whether a child has ended.
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>
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

int morse_is_on_sysfs(int fd) {
  struct statfs status;
  if (fstatfs(fd, &status) == -1) return -1;
  return status.f_type == SYSFS_MAGIC;
}

int morse_pipe_cloexec(int ends[2]) { return pipe2(ends, O_CLOEXEC); }

int morse_pipe_set_capacity(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }

int morse_child_ended(int pid, int *status) {
  int result = waitpid(pid, status, WNOHANG);
  return result == -1 ? -1 : result == pid ? 1 : 0;
}
