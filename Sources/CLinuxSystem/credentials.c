// Acting with another user's credentials, on a thread of its own, so that the kernel decides
// what that user may open (permission bits, ACLs, capabilities, security modules) instead of
// morsetorch working it out from mode bits.
//
// setgroups, setresgid and setresuid are made as raw system calls: the kernel keeps
// credentials per thread, and only glibc's wrappers pass a change on to every thread of the
// process. The thread ends once it has done its one call, and its credentials with it.
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
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
#ifdef SYS_setresuid32
#define MORSE_SYS_SETGROUPS SYS_setgroups32
#define MORSE_SYS_SETRESGID SYS_setresgid32
#define MORSE_SYS_SETRESUID SYS_setresuid32
#else
#define MORSE_SYS_SETGROUPS SYS_setgroups
#define MORSE_SYS_SETRESGID SYS_setresgid
#define MORSE_SYS_SETRESUID SYS_setresuid
#endif

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
  // Real, effective and saved IDs all: access(2) checks the real ones, open(2) the effective
  // (file-system) ones.
  if (syscall(MORSE_SYS_SETGROUPS, user->count, user->groups) == -1) return -1;
  if (syscall(MORSE_SYS_SETRESGID, user->gid, user->gid, user->gid) == -1) return -1;
  if (syscall(MORSE_SYS_SETRESUID, user->uid, user->uid, user->uid) == -1) return -1;
  // Checked, not assumed.
  uid_t real, effective, saved;
  if (getresuid(&real, &effective, &saved) == -1) return -1;
  if (real != user->uid || effective != user->uid || saved != user->uid) {
    errno = EPERM;
    return -1;
  }
  return 0;
}

static void *run_as_user(void *argument) {
  as_user_call *call = argument;
  if (become(call->user) == -1) {
    call->result = -1;
  } else if (call->is_access) {
    call->result = access(call->path, call->flags);
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
