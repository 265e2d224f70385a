// sndcap: records a sound card's capture device with the kernel's own interface (no
// alsa-lib), each stretch it reads timed on CLOCK_MONOTONIC, to tell when a tone was heard.
//
//   sndcap DEVICE SECONDS RAW TIMES
//       captures DEVICE (/dev/snd/pcmC0D1c: snd-aloop's capture side, which hears what is
//       played on its playback side) as 16-bit mono at 48 kHz, in periods of 48 frames, for
//       SECONDS (or until SIGTERM); writes the samples to RAW and, to TIMES, one line per read:
//       "FRAMES NS", the frames the card had captured and when it had (the kernel's timestamp
//       of its last pointer update, CLOCK_MONOTONIC: SNDRV_PCM_IOCTL_STATUS with timestamps
//       on), so that a reader late to its data does not make the sound later. Prints "ready"
//       on standard output once capturing.
//
// The host's check takes for a frame the time of the first update that had it (within one
// tick of the loopback's timer, a few milliseconds).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <sound/asound.h>

static volatile sig_atomic_t stopping = 0;
static void stop(int signal) { (void)signal; stopping = 1; }

static int64_t now_ns(void) {  // for SECONDS
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void fail(const char *what) {
  fprintf(stderr, "sndcap: %s: %s\n", what, strerror(errno));
  exit(1);
}

// One value of a mask parameter (access, format, subformat).
static void only_bit(struct snd_pcm_hw_params *p, int param, unsigned bit) {
  struct snd_mask *mask = &p->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];
  memset(mask->bits, 0, sizeof mask->bits);
  mask->bits[bit >> 5] |= 1u << (bit & 31);
}

// One value of an interval parameter (channels, rate, period size).
static void only_value(struct snd_pcm_hw_params *p, int param, unsigned value) {
  struct snd_interval *interval = &p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
  interval->min = interval->max = value;
  interval->openmin = interval->openmax = 0;
  interval->integer = 1;
  interval->empty = 0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: sndcap DEVICE SECONDS RAW TIMES\n");
    return 64;
  }
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(argv[1]);
  struct snd_pcm_hw_params params;
  memset(&params, 0, sizeof params);
  for (int i = 0; i <= SNDRV_PCM_HW_PARAM_LAST_MASK - SNDRV_PCM_HW_PARAM_FIRST_MASK; i++)
    memset(params.masks[i].bits, 0xff, sizeof params.masks[i].bits);
  for (int i = 0; i <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; i++) {
    params.intervals[i].min = 0;
    params.intervals[i].max = ~0u;
  }
  params.rmask = ~0u;
  params.info = ~0u;
  only_bit(&params, SNDRV_PCM_HW_PARAM_ACCESS, SNDRV_PCM_ACCESS_RW_INTERLEAVED);
  only_bit(&params, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE);
  only_bit(&params, SNDRV_PCM_HW_PARAM_SUBFORMAT, SNDRV_PCM_SUBFORMAT_STD);
  only_value(&params, SNDRV_PCM_HW_PARAM_CHANNELS, 1);
  only_value(&params, SNDRV_PCM_HW_PARAM_RATE, 48000);
  only_value(&params, SNDRV_PCM_HW_PARAM_PERIOD_SIZE, 48);
  only_value(&params, SNDRV_PCM_HW_PARAM_BUFFER_SIZE, 9600);
  if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &params) < 0) fail("SNDRV_PCM_IOCTL_HW_PARAMS");
  // Timestamps of the pointer's updates, on the monotonic clock (the defaults otherwise).
  struct snd_pcm_sw_params software;
  memset(&software, 0, sizeof software);
  software.tstamp_mode = SNDRV_PCM_TSTAMP_ENABLE;
  software.period_step = 1;
  software.avail_min = 48;
  software.start_threshold = 1;
  software.stop_threshold = 9600;
  software.proto = SNDRV_PCM_VERSION;
  software.tstamp_type = SNDRV_PCM_TSTAMP_TYPE_MONOTONIC;
  if (ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &software) < 0) fail("SNDRV_PCM_IOCTL_SW_PARAMS");
  if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0) fail("SNDRV_PCM_IOCTL_PREPARE");
  if (ioctl(fd, SNDRV_PCM_IOCTL_START) < 0) fail("SNDRV_PCM_IOCTL_START");
  FILE *raw = fopen(argv[3], "wb");
  FILE *times = fopen(argv[4], "w");
  if (!raw || !times) fail("fopen");
  signal(SIGTERM, stop);
  printf("ready\n");
  fflush(stdout);
  int64_t end = now_ns() + (int64_t)(atof(argv[2]) * 1e9);
  int16_t buffer[48];
  long long total = 0;
  while (!stopping && now_ns() < end) {
    struct snd_xferi transfer = {.result = 0, .buf = buffer, .frames = 48};
    if (ioctl(fd, SNDRV_PCM_IOCTL_READI_FRAMES, &transfer) < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) {  // an overrun: said, and captured on
        fprintf(stderr, "sndcap: overrun after %lld frames\n", total);
        if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0) fail("SNDRV_PCM_IOCTL_PREPARE");
        if (ioctl(fd, SNDRV_PCM_IOCTL_START) < 0) fail("SNDRV_PCM_IOCTL_START");
        continue;
      }
      fail("SNDRV_PCM_IOCTL_READI_FRAMES");
    }
    fwrite(buffer, 2, (size_t)transfer.result, raw);
    total += transfer.result;
    struct snd_pcm_status status;
    memset(&status, 0, sizeof status);
    if (ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &status) < 0) fail("SNDRV_PCM_IOCTL_STATUS");
    // Captured by then: what was read, and what waits to be (hw_ptr counts from the start
    // but for overruns; avail is what has not been read).
    fprintf(times, "%lld %lld\n", total + (long long)status.avail,
            (long long)status.tstamp.tv_sec * 1000000000 + status.tstamp.tv_nsec);
  }
  fclose(raw);
  fclose(times);
  close(fd);
  return 0;
}
