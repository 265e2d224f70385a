// The timing thread's priority: timer slack, SCHED_FIFO and locked memory (TimingPriority).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

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
