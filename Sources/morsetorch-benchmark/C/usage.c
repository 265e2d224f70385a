// usage PROGRAM ARGUMENT... (built by morsetorch-benchmark with cc -O2)
//
// Runs PROGRAM (fork, exec) and, when it ends, prints on standard error one line:
//   usage: STATUS USER_US SYSTEM_US PEAK_RSS_KB
// from wait4(2). The benchmark starts senders through it because a child started with
// posix_spawn (vfork) counts the parent's memory as its own peak until it execs; forked from
// this small program, a sender's peak RSS is its own.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PROGRAM ARGUMENT...\n", argv[0]);
    return 64;
  }
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return 71;
  }
  if (child == 0) {
    execv(argv[1], argv + 1);
    perror(argv[1]);
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  while (wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      perror("wait4");
      return 71;
    }
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  fprintf(stderr, "usage: %d %lld %lld %ld\n", code,
          (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec,
          (long long)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec, usage.ru_maxrss);
  return code;
}
