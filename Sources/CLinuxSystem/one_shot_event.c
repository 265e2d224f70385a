// The one-way event of OneShotEvent: an atomic flag, a semaphore and an eventfd.
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

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
