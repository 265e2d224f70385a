// peakrss PROGRAM ARGUMENTS...: runs the program (its output passed through), then prints
// "peak-rss-kb=N status=S", its peak resident memory from wait4(2).
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: peakrss PROGRAM ARGUMENTS...\n");
    return 64;
  }
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return 71;
  }
  if (child == 0) {
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    _exit(127);
  }
  int status;
  struct rusage usage;
  if (wait4(child, &status, 0, &usage) < 0) {
    perror("wait4");
    return 71;
  }
  printf("peak-rss-kb=%ld status=%d\n", usage.ru_maxrss,
         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  return 0;
}
