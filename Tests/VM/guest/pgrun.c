// pgrun COMMAND [ARG...]: runs COMMAND in a process group of its own, as a shell with job
// control runs a job, waits for it and exits with its status. Without it a stop signal
// (SIGTSTP) to a command of the guest's scripts would be discarded by the kernel, as one to
// an orphaned process group is: every process there shares init's group.
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: pgrun COMMAND [ARG...]\n");
    return 64;
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("pgrun: fork");
    return 71;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    _exit(127);
  }
  setpgid(pid, pid);
  int status;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
