// uledrec: creates LEDs with the kernel's uleds driver, runs one scenario against them and
// timestamps (CLOCK_MONOTONIC) every brightness change the kernel reports.
//
// It is the only clock in a scenario: the command under test, the signal sent to it, the
// removal of an LED and every edge are stamped by this one process, so the host can score
// them against each other. Runs inside the test VM; built statically on the host.
//
// Usage:
//   uledrec -d DIR [-L NAME:MAX]... [-s SETUP] [-c MAIN] [-C SECOND]
//           [-e LED:EDGE:DELAY_MS:ACTION[:VALUE]] [-p POST_MS] [-f FINAL] [-t TIMEOUT_MS]
//           [-V VIDEO_DEVICE]
//
// -V: the first LED is shown to a camera: the picture of VIDEO_DEVICE (the kernel's vivid
// virtual camera) is switched white the moment the LED is on and back to colour bars the
// moment it is off, its text overlay turned off; logged as "picture T VALUE" (1 white).
//
// Phases, in order: SETUP (sh -c, waited for) -> MAIN (sh -c "exec MAIN") -> POST_MS of
// further recording after MAIN (and SECOND) exited -> FINAL (sh -c, waited for) -> the LEDs
// are closed (removed). Every child's stdout/stderr go to DIR/<phase>.out and .err.
//
// The event (-e) fires DELAY_MS after the EDGE-th brightness change of LED number LED
// counted from MAIN's start (EDGE 0: DELAY_MS after MAIN started); with VALUE, only changes
// to that value are counted (to tell the command's writes from a trigger's). ACTION is one of
//   term | int | hup | kill   send that signal to MAIN
//   remove                    close that LED's /dev/uleds fd: the kernel removes the LED
//   second                    start SECOND (sh -c "exec SECOND") while MAIN runs
// MAIN and SECOND are killed with SIGKILL after TIMEOUT_MS (logged as "hang").
//
// uledrec runs SCHED_FIFO 20 (its children do not; morsetorch itself asks for FIFO 10), so a
// brightness change wakes it at once; with -i it runs SCHED_IDLE instead, never between two
// writes of a command. uleds keeps only the latest value: a reader that ran late could miss
// a short pulse, e.g. when the writer catches up after the emulator stalled.
//
// DIR/log lines (times in ns of CLOCK_MONOTONIC):
//   led I NAME MAX            an LED was created
//   edge I T VALUE            the kernel reported brightness VALUE (first one: initial value)
//   start WHO T PID           a child was started (setup, main, second, final)
//   exit WHO T STATUS         it ended; STATUS is the exit code, or 128+signal
//   action T WHAT             the event fired
//   missed T WHAT             the event came due after MAIN had ended, and did nothing
//   removed I T               LED I was removed by closing its fd
//   hang WHO T                WHO outlived TIMEOUT_MS and was killed
//   picture T VALUE           -V: the camera's picture was switched (VALUE 1 white, 0 bars)
//   error TEXT                something in the harness itself failed
//   done T
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LEDS 8

struct uleds_user_dev {
  char name[64];
  int max_brightness;
};

enum phase { SETUP, MAIN, POST, FINAL, DONE };
enum child { C_SETUP, C_MAIN, C_SECOND, C_FINAL, C_COUNT };
static const char *child_names[C_COUNT] = {"setup", "main", "second", "final"};

static FILE *log_file;
static const char *dir = ".";
static int led_fd[MAX_LEDS];
static char led_name[MAX_LEDS][64];
static int led_count;
static long edge_count[MAX_LEDS];  // changes seen since MAIN started
static pid_t pids[C_COUNT];
static const char *commands[C_COUNT];

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void log_line(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(log_file, format, args);
  va_end(args);
  fputc('\n', log_file);
  fflush(log_file);
}

static void die(const char *what) {
  log_line("error %s: %s", what, strerror(errno));
  fprintf(stderr, "uledrec: %s: %s\n", what, strerror(errno));
  exit(2);
}

static void arm(int timer_fd, int64_t at_ns) {
  struct itimerspec spec = {0};
  if (at_ns > 0) {
    spec.it_value.tv_sec = at_ns / 1000000000;
    spec.it_value.tv_nsec = at_ns % 1000000000;
  }
  if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &spec, NULL) < 0) die("timerfd_settime");
}

static void start_child(enum child which, int exec_prefix) {
  char path[512], script[4096];
  snprintf(script, sizeof script, "%s%s", exec_prefix ? "exec " : "", commands[which]);
  int64_t t = now_ns();
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    // SCHED_RESET_ON_FORK resets SCHED_FIFO, not SCHED_IDLE: the commands run as usual.
    struct sched_param normal = {.sched_priority = 0};
    sched_setscheduler(0, SCHED_OTHER, &normal);
    snprintf(path, sizeof path, "%s/%s.out", dir, child_names[which]);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    snprintf(path, sizeof path, "%s/%s.err", dir, child_names[which]);
    int err = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || null < 0) _exit(126);
    dup2(null, 0);
    dup2(out, 1);
    dup2(err, 2);
    for (int i = 0; i < led_count; i++) close(led_fd[i]);
    execl("/bin/sh", "sh", "-c", script, (char *)NULL);
    _exit(127);
  }
  pids[which] = pid;
  log_line("start %s %lld %d", child_names[which], (long long)t, (int)pid);
}

static void remove_led(int index) {
  if (led_fd[index] < 0) return;
  close(led_fd[index]);
  led_fd[index] = -1;
  log_line("removed %d %lld", index, (long long)now_ns());
}

static void usage(void) {
  fprintf(stderr,
          "usage: uledrec -d DIR [-L NAME:MAX]... [-s SETUP] [-c MAIN] [-C SECOND]\n"
          "               [-e LED:EDGE:DELAY_MS:ACTION[:VALUE]] [-p POST_MS] [-f FINAL]\n"
          "               [-t TIMEOUT_MS] [-i] [-V VIDEO_DEVICE]\n");
  exit(64);
}

// -V: the camera whose picture shows the first LED, the control that switches its test
// pattern, and that control's entries for the LED off and on.
static int camera_fd = -1;
static unsigned pattern_control;
static int pattern_off = -1, pattern_on = -1;

// Sets control `id` of the camera; logs a failure.
static void set_camera_control(unsigned id, int value) {
  struct v4l2_control control = {.id = id, .value = value};
  if (ioctl(camera_fd, VIDIOC_S_CTRL, &control) < 0)
    log_line("error VIDIOC_S_CTRL 0x%x=%d: %s", id, value, strerror(errno));
}

// The index of the entry named `name` of menu control `query`, or -1.
static int menu_entry(const struct v4l2_queryctrl *query, const char *name) {
  for (int index = query->minimum; index <= query->maximum; index++) {
    struct v4l2_querymenu menu = {.id = query->id, .index = (unsigned)index};
    if (ioctl(camera_fd, VIDIOC_QUERYMENU, &menu) == 0 &&
        strcmp((const char *)menu.name, name) == 0)
      return index;
  }
  return -1;
}

// Opens the camera, turns vivid's text overlay off (the control "OSD Text Mode", its entry
// "None") and shows the LED off: vivid's "Test Pattern" control switches between "75%
// Colorbar" (off) and "100% White" (on) — a picture in which part (its white bar) never
// changes, as a scene around a light. (The brightness control would not do: vivid ignores
// it in GREY pictures.)
static void open_camera(const char *path) {
  camera_fd = open(path, O_RDWR | O_CLOEXEC);
  if (camera_fd < 0) {
    log_line("error open %s: %s", path, strerror(errno));
    return;
  }
  struct v4l2_queryctrl query = {.id = V4L2_CTRL_FLAG_NEXT_CTRL};
  while (ioctl(camera_fd, VIDIOC_QUERYCTRL, &query) == 0) {
    const char *name = (const char *)query.name;
    if (strcmp(name, "OSD Text Mode") == 0) {
      int none = menu_entry(&query, "None");
      if (none >= 0) set_camera_control(query.id, none);
    } else if (strcmp(name, "Test Pattern") == 0) {
      pattern_control = query.id;
      pattern_off = menu_entry(&query, "75% Colorbar");
      pattern_on = menu_entry(&query, "100% White");
    }
    query.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
  }
  if (pattern_off < 0 || pattern_on < 0) {
    log_line("error %s has no Test Pattern control with 75%% Colorbar and 100%% White", path);
    close(camera_fd);
    camera_fd = -1;
    return;
  }
  set_camera_control(pattern_control, pattern_off);
}

int main(int argc, char **argv) {
  const char *camera = NULL;
  int event_led = -1, event_edge = 0, event_delay_ms = 0, event_value = -1;
  char event_action[16] = "";
  long post_ms = 0, timeout_ms = 30000;
  int option, yields = 0;
  const char *led_specs[MAX_LEDS];
  int spec_count = 0;

  while ((option = getopt(argc, argv, "d:L:s:c:C:e:p:f:t:iV:")) != -1) {
    switch (option) {
      case 'd': dir = optarg; break;
      case 'L':
        if (spec_count == MAX_LEDS) usage();
        led_specs[spec_count++] = optarg;
        break;
      case 's': commands[C_SETUP] = optarg; break;
      case 'c': commands[C_MAIN] = optarg; break;
      case 'C': commands[C_SECOND] = optarg; break;
      case 'e':
        if (sscanf(optarg, "%d:%d:%d:%15[a-z]:%d", &event_led, &event_edge, &event_delay_ms,
                   event_action, &event_value) < 4)
          usage();
        break;
      case 'p': post_ms = atol(optarg); break;
      case 'f': commands[C_FINAL] = optarg; break;
      case 't': timeout_ms = atol(optarg); break;
      case 'i': yields = 1; break;
      case 'V': camera = optarg; break;
      default: usage();
    }
  }
  if (!commands[C_MAIN]) usage();

  char path[512];
  snprintf(path, sizeof path, "%s/log", dir);
  log_file = fopen(path, "w");
  if (!log_file) {
    perror(path);
    return 2;
  }
  // -i: SCHED_IDLE, which never preempts the commands, for a scenario whose edges the kernel
  // timestamps itself (a kprobe): the recorder must not run between two LEDs switched together.
  struct sched_param priority = {.sched_priority = yields ? 0 : 20};
  int policy = yields ? SCHED_IDLE : SCHED_FIFO;
  if (sched_setscheduler(0, policy | SCHED_RESET_ON_FORK, &priority) < 0)
    log_line("error sched_setscheduler %s: %s", yields ? "SCHED_IDLE" : "SCHED_FIFO",
             strerror(errno));

  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  int signal_fd = signalfd(-1, &mask, SFD_CLOEXEC);
  int event_timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  int phase_timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  int hang_timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  if (signal_fd < 0 || event_timer < 0 || phase_timer < 0 || hang_timer < 0) die("fd setup");

  for (int i = 0; i < spec_count; i++) {
    struct uleds_user_dev device;
    memset(&device, 0, sizeof device);
    const char *colon = strrchr(led_specs[i], ':');
    if (!colon) usage();
    size_t length = (size_t)(colon - led_specs[i]);
    if (length == 0 || length >= sizeof device.name) usage();
    memcpy(device.name, led_specs[i], length);
    device.max_brightness = atoi(colon + 1);
    led_fd[i] = open("/dev/uleds", O_RDWR | O_CLOEXEC);
    if (led_fd[i] < 0) die("open /dev/uleds");
    if (write(led_fd[i], &device, sizeof device) != (ssize_t)sizeof device) die("write /dev/uleds");
    memcpy(led_name[i], device.name, sizeof device.name);
    led_count = i + 1;
    log_line("led %d %s %d", i, device.name, device.max_brightness);
  }

  if (camera) open_camera(camera);

  enum phase phase = SETUP;
  if (commands[C_SETUP]) {
    start_child(C_SETUP, 0);
  } else {
    phase = MAIN;
    start_child(C_MAIN, 1);
    arm(hang_timer, now_ns() + timeout_ms * 1000000LL);
    if (event_led >= 0 && event_edge == 0) arm(event_timer, now_ns() + event_delay_ms * 1000000LL);
  }

  while (phase != DONE) {
    struct pollfd fds[MAX_LEDS + 4];
    int n = 0;
    for (int i = 0; i < led_count; i++) fds[n++] = (struct pollfd){led_fd[i], POLLIN, 0};
    fds[n++] = (struct pollfd){signal_fd, POLLIN, 0};
    fds[n++] = (struct pollfd){event_timer, POLLIN, 0};
    fds[n++] = (struct pollfd){phase_timer, POLLIN, 0};
    fds[n++] = (struct pollfd){hang_timer, POLLIN, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    // LEDs first, so that an edge is stamped as close as possible to the kernel's report.
    for (int i = 0; i < led_count; i++) {
      if (led_fd[i] < 0 || !(fds[i].revents & (POLLIN | POLLERR | POLLHUP))) continue;
      int value;
      ssize_t got = read(led_fd[i], &value, sizeof value);
      int64_t t = now_ns();
      if (got == (ssize_t)sizeof value) {
        log_line("edge %d %lld %d", i, (long long)t, value);
        if (i == 0 && camera_fd >= 0) {
          set_camera_control(pattern_control, value > 0 ? pattern_on : pattern_off);
          log_line("picture %lld %d", (long long)now_ns(), value > 0 ? 1 : 0);
        }
        if (phase == MAIN && (event_value < 0 || value == event_value)) {
          edge_count[i]++;
          if (i == event_led && edge_count[i] == event_edge)
            arm(event_timer, t + event_delay_ms * 1000000LL);
        }
      } else if (got < 0 && errno != EAGAIN && errno != EINTR) {
        log_line("error read led %d: %s", i, strerror(errno));
        remove_led(i);
      }
    }
    uint64_t ticks;
    if (fds[n - 3].revents & POLLIN) {  // the scenario's event
      if (read(event_timer, &ticks, sizeof ticks) < 0) die("read event timer");
      if (phase != MAIN) {
        log_line("missed %lld %s", (long long)now_ns(), event_action);
        continue;
      }
      log_line("action %lld %s", (long long)now_ns(), event_action);
      int signal_number = 0;
      if (!strcmp(event_action, "term")) signal_number = SIGTERM;
      else if (!strcmp(event_action, "int")) signal_number = SIGINT;
      else if (!strcmp(event_action, "hup")) signal_number = SIGHUP;
      else if (!strcmp(event_action, "kill")) signal_number = SIGKILL;
      if (signal_number) {
        if (pids[C_MAIN] > 0) kill(pids[C_MAIN], signal_number);
      } else if (!strcmp(event_action, "remove")) {
        remove_led(event_led);
      } else if (!strcmp(event_action, "second")) {
        if (commands[C_SECOND]) start_child(C_SECOND, 1);
      } else {
        log_line("error unknown action %s", event_action);
      }
    }
    if (fds[n - 1].revents & POLLIN) {  // a command under test hangs
      if (read(hang_timer, &ticks, sizeof ticks) < 0) die("read hang timer");
      for (int c = C_MAIN; c <= C_SECOND; c++) {
        if (pids[c] > 0) {
          log_line("hang %s %lld", child_names[c], (long long)now_ns());
          kill(pids[c], SIGKILL);
        }
      }
    }
    if (fds[n - 2].revents & POLLIN) {  // end of POST
      if (read(phase_timer, &ticks, sizeof ticks) < 0) die("read phase timer");
      if (phase == POST) {
        phase = FINAL;
        if (commands[C_FINAL]) start_child(C_FINAL, 0);
        else phase = DONE;
      }
    }
    if (fds[n - 4].revents & POLLIN) {
      struct signalfd_siginfo info;
      if (read(signal_fd, &info, sizeof info) < 0) die("read signalfd");
      int status;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int64_t t = now_ns();
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        for (int c = 0; c < C_COUNT; c++) {
          if (pids[c] != pid) continue;
          pids[c] = 0;
          log_line("exit %s %lld %d", child_names[c], (long long)t, code);
          if (c == C_SETUP && phase == SETUP) {
            phase = MAIN;
            start_child(C_MAIN, 1);
            arm(hang_timer, now_ns() + timeout_ms * 1000000LL);
            if (event_led >= 0 && event_edge == 0)
              arm(event_timer, now_ns() + event_delay_ms * 1000000LL);
          } else if (c == C_FINAL) {
            phase = DONE;
          }
        }
      }
      if (phase == MAIN && pids[C_MAIN] == 0 && pids[C_SECOND] == 0) {
        phase = POST;
        arm(hang_timer, 0);
        arm(phase_timer, now_ns() + post_ms * 1000000LL + 1);
      }
    }
  }
  for (int i = 0; i < led_count; i++) remove_led(i);
  log_line("done %lld", (long long)now_ns());
  return 0;
}
