// hog MEGABYTES (built by morsetorch-benchmark with cc -O2, for `pressure`)
//
// Maps MEGABYTES of anonymous memory, writes every page, unmaps it and starts again, for ever:
// inside a memory cgroup near its limit, each round's page faults make the kernel reclaim the
// cgroup's page cache (a sender's executable among it) over and over.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long megabytes = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
  if (megabytes <= 0) {
    fprintf(stderr, "usage: %s MEGABYTES\n", argv[0]);
    return 64;
  }
  size_t size = (size_t)megabytes << 20;
  long page = sysconf(_SC_PAGESIZE);
  for (;;) {
    volatile char *memory =
        mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      perror("mmap");
      return 71;
    }
    for (size_t offset = 0; offset < size; offset += (size_t)page) memory[offset] = 1;
    munmap((void *)memory, size);
  }
}
