// Acting with another user's rights on files, so that the kernel decides what that user may
// open (permission bits, ACLs, security modules) instead of morsetorch working it out from
// mode bits.
//
// Only the file-system IDs change (setfsuid, setfsgid, and the supplementary groups), never
// the real, effective or saved IDs. The kernel lets a user signal a thread whose real or saved
// user ID is hers (kill(2)'s rule, and kill on a thread ID checks that thread alone), lower its
// limits (prlimit's rule) or trace it (ptrace's): a thread that took the member's uid with
// setresuid gave her, for as long as it lived, a handle on root's whole process. The
// file-system IDs are in none of those checks; changing them also makes the process
// non-dumpable, so its /proc files stay root's. A child process would have done as well, but
// its death (a member may kill a child that takes her uid) is one more outcome to survive
// for nothing: the file-system IDs leave her no handle at all.
//
// These are raw system calls: the kernel keeps credentials per thread, and glibc's and musl's
// wrappers pass some changes on to every thread of the process. The work is done on a thread
// of its own that ends once it has made its one call, its credentials with it; it also drops
// every capability from its effective set first, so that neither CAP_DAC_OVERRIDE (which
// SECBIT_NO_SETUID_FIXUP would keep past setfsuid) nor any other lets root's rights through.
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct {
  const morse_user *user;
  int directory;
  const char *path;
  int flags;
  mode_t mode;
  int is_access;
  int result;
  int error;
} as_user_call;

// Where the plain calls take 16-bit IDs (32-bit ARM, i386), the 32-bit ones: a user 65536
// must never become root.
#ifdef SYS_setfsuid32
#define MORSE_SYS_SETGROUPS SYS_setgroups32
#define MORSE_SYS_SETFSGID SYS_setfsgid32
#define MORSE_SYS_SETFSUID SYS_setfsuid32
#else
#define MORSE_SYS_SETGROUPS SYS_setgroups
#define MORSE_SYS_SETFSGID SYS_setfsgid
#define MORSE_SYS_SETFSUID SYS_setfsuid
#endif

// faccessat2 (Linux 5.8) is the one access call that honours AT_EACCESS in the kernel, so
// that it checks the file-system IDs; the C libraries' faccessat does that check with the
// real IDs (root's) when they equal the effective ones. Its number is 439 on every
// architecture.
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

/// The effective capabilities of this thread cleared (the permitted ones kept: the thread
/// ends soon after); 0, or -1 with errno.
static int drop_effective_capabilities(void) {
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  if (syscall(SYS_capget, &header, data) == -1) return -1;
  for (int index = 0; index < _LINUX_CAPABILITY_U32S_3; index++) data[index].effective = 0;
  if (syscall(SYS_capset, &header, data) == -1) return -1;
  // Checked, not assumed.
  if (syscall(SYS_capget, &header, data) == -1) return -1;
  for (int index = 0; index < _LINUX_CAPABILITY_U32S_3; index++) {
    if (data[index].effective != 0) {
      errno = EPERM;
      return -1;
    }
  }
  return 0;
}

static int become(const morse_user *user) {
  // -1 means "leave it as it is" to these calls: never a user to act as.
  if (user->uid == (uid_t)-1 || user->gid == (gid_t)-1) {
    errno = EINVAL;
    return -1;
  }
  for (size_t index = 0; index < user->count; index++) {
    if (user->groups[index] == (gid_t)-1) {
      errno = EINVAL;
      return -1;
    }
  }
  if (syscall(MORSE_SYS_SETGROUPS, user->count, user->groups) == -1) return -1;
  // setfsgid and setfsuid report no error: they return the ID before, and an ID of -1
  // changes nothing and returns the present one, which is how each change is checked.
  syscall(MORSE_SYS_SETFSGID, user->gid);
  if ((gid_t)syscall(MORSE_SYS_SETFSGID, (gid_t)-1) != user->gid) {
    errno = EPERM;
    return -1;
  }
  syscall(MORSE_SYS_SETFSUID, user->uid);
  if ((uid_t)syscall(MORSE_SYS_SETFSUID, (uid_t)-1) != user->uid) {
    errno = EPERM;
    return -1;
  }
  return drop_effective_capabilities();
}

/// access(2) of `path` for `mode` with the file-system IDs: faccessat2's AT_EACCESS, else
/// (a kernel before 5.8) the file opened for that mode, without blocking, and closed.
static int access_with_file_system_ids(const char *path, int mode) {
  long checked = syscall(SYS_faccessat2, AT_FDCWD, path, mode, AT_EACCESS);
  if (checked == 0 || errno != ENOSYS) return (int)checked;
  int flags = (mode & W_OK) ? ((mode & R_OK) ? O_RDWR : O_WRONLY) : O_RDONLY;
  int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
  if (fd == -1) return -1;
  close(fd);
  return 0;
}

static void *run_as_user(void *argument) {
  as_user_call *call = argument;
  if (become(call->user) == -1) {
    call->result = -1;
  } else if (call->is_access) {
    call->result = access_with_file_system_ids(call->path, call->flags);
  } else {
    call->result = morse_open_beneath(call->directory, call->path, call->flags, call->mode);
  }
  call->error = errno;
  return NULL;
}

static int call_as_user(as_user_call *call) {
  pthread_t thread;
  // No signal is handled on this thread: it only makes one call.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  int started = pthread_create(&thread, NULL, run_as_user, call);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  if (started != 0) {
    errno = started;
    return -1;
  }
  pthread_join(thread, NULL);
  errno = call->error;
  return call->result;
}

int morse_open_beneath_as(
  const morse_user *user, int directory, const char *path, int flags, mode_t mode) {
  as_user_call call = {user, directory, path, flags, mode, 0, -1, 0};
  return call_as_user(&call);
}

int morse_access_as(const morse_user *user, const char *path, int mode) {
  as_user_call call = {user, -1, path, mode, 0, 1, -1, 0};
  return call_as_user(&call);
}
