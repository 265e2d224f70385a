// The GPIO character device's uAPI v2 ioctls: chips, lines, values and edge events (GPIODriver).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/gpio.h>

static void copy_name(char *to, const char *from) {
  strncpy(to, from, 31);
  to[31] = 0;
}

int morse_gpio_chip_info(int fd, morse_gpio_chip *chip) {
  struct gpiochip_info info;
  memset(&info, 0, sizeof info);
  if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) == -1) return -1;
  copy_name(chip->name, info.name);
  copy_name(chip->label, info.label);
  chip->lines = info.lines;
  return 0;
}

int morse_gpio_line_info(int fd, unsigned int offset, morse_gpio_line *line) {
  struct gpio_v2_line_info info;
  memset(&info, 0, sizeof info);
  info.offset = offset;
  if (ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, &info) == -1) return -1;
  copy_name(line->name, info.name);
  copy_name(line->consumer, info.consumer);
  line->offset = info.offset;
  line->flags = info.flags;
  return 0;
}

int morse_gpio_request(int fd, unsigned int offset, const char *consumer,
                       unsigned long long flags, int initial, unsigned int events) {
  struct gpio_v2_line_request request;
  memset(&request, 0, sizeof request);
  request.offsets[0] = offset;
  request.num_lines = 1;
  strncpy(request.consumer, consumer, GPIO_MAX_NAME_SIZE - 1);
  request.config.flags = flags;
  request.event_buffer_size = events;
  if (flags & GPIO_V2_LINE_FLAG_OUTPUT) {
    request.config.num_attrs = 1;
    request.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
    request.config.attrs[0].attr.values = initial ? 1 : 0;
    request.config.attrs[0].mask = 1;
  }
  if (ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &request) == -1) return -1;
  return request.fd;
}

int morse_gpio_set(int line_fd, int active) {
  struct gpio_v2_line_values values = {.bits = active ? 1 : 0, .mask = 1};
  return ioctl(line_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &values) == -1 ? -1 : 0;
}

int morse_gpio_get(int line_fd) {
  struct gpio_v2_line_values values = {.bits = 0, .mask = 1};
  if (ioctl(line_fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &values) == -1) return -1;
  return (int)(values.bits & 1);
}

int morse_gpio_read_event(int line_fd, morse_gpio_event *event) {
  struct gpio_v2_line_event raw;
  ssize_t count;
  do {
    count = read(line_fd, &raw, sizeof raw);
  } while (count == -1 && errno == EINTR);
  if (count <= 0) return (int)count;
  if ((size_t)count != sizeof raw) {
    errno = EIO;
    return -1;
  }
  event->timestamp_ns = raw.timestamp_ns;
  event->rising = raw.id == GPIO_V2_LINE_EVENT_RISING_EDGE;
  event->sequence = raw.line_seqno;
  return 1;
}
