// V4L2 capture devices: formats, frame rates, memory-mapped buffers, controls (KernelVideoDevice).
#define _GNU_SOURCE
#include "CLinuxSystem.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>

_Static_assert(MORSE_VIDEO_CAP_VIDEO_CAPTURE == V4L2_CAP_VIDEO_CAPTURE, "V4L2");
_Static_assert(MORSE_VIDEO_CAP_VIDEO_CAPTURE_MPLANE == V4L2_CAP_VIDEO_CAPTURE_MPLANE, "V4L2");
_Static_assert(MORSE_VIDEO_CAP_STREAMING == V4L2_CAP_STREAMING, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_ERROR == V4L2_BUF_FLAG_ERROR, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MASK == V4L2_BUF_FLAG_TIMESTAMP_MASK, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MONOTONIC == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
               "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_MASK == V4L2_BUF_FLAG_TSTAMP_SRC_MASK, "V4L2");
_Static_assert(MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_SOE == V4L2_BUF_FLAG_TSTAMP_SRC_SOE, "V4L2");
_Static_assert(MORSE_VIDEO_CID_AUTOGAIN == V4L2_CID_AUTOGAIN, "V4L2");
_Static_assert(MORSE_VIDEO_CID_EXPOSURE_AUTO == V4L2_CID_EXPOSURE_AUTO, "V4L2");
_Static_assert(MORSE_VIDEO_CID_EXPOSURE_ABSOLUTE == V4L2_CID_EXPOSURE_ABSOLUTE, "V4L2");
_Static_assert(MORSE_VIDEO_CID_EXPOSURE_AUTO_PRIORITY == V4L2_CID_EXPOSURE_AUTO_PRIORITY, "V4L2");
_Static_assert(MORSE_VIDEO_EXPOSURE_MANUAL == V4L2_EXPOSURE_MANUAL, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_FLAG_DISABLED == V4L2_CTRL_FLAG_DISABLED, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_FLAG_READ_ONLY == V4L2_CTRL_FLAG_READ_ONLY, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_FLAG_INACTIVE == V4L2_CTRL_FLAG_INACTIVE, "V4L2");
_Static_assert(MORSE_VIDEO_CTRL_TYPE_MENU == V4L2_CTRL_TYPE_MENU, "V4L2");

/// ioctl(2), again after a signal.
static int video_ioctl(int fd, unsigned long request, void *argument) {
  int result;
  do {
    result = ioctl(fd, request, argument);
  } while (result == -1 && errno == EINTR);
  return result;
}

static void copy_text(char *to, size_t size, const __u8 *from) {
  strncpy(to, (const char *)from, size - 1);
  to[size - 1] = 0;
}

int morse_video_query(int fd, morse_video_device *device) {
  struct v4l2_capability capability;
  memset(&capability, 0, sizeof capability);
  if (video_ioctl(fd, VIDIOC_QUERYCAP, &capability) == -1) return -1;
  copy_text(device->driver, sizeof device->driver, capability.driver);
  copy_text(device->card, sizeof device->card, capability.card);
  copy_text(device->bus, sizeof device->bus, capability.bus_info);
  device->capabilities = (capability.capabilities & V4L2_CAP_DEVICE_CAPS)
                             ? capability.device_caps
                             : capability.capabilities;
  return 0;
}

int morse_video_format_at(int fd, unsigned int index, unsigned int *fourcc) {
  struct v4l2_fmtdesc format;
  memset(&format, 0, sizeof format);
  format.index = index;
  format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (video_ioctl(fd, VIDIOC_ENUM_FMT, &format) == -1) return -1;
  *fourcc = format.pixelformat;
  return 0;
}

static void read_picture(const struct v4l2_format *format, morse_video_picture *picture) {
  picture->width = format->fmt.pix.width;
  picture->height = format->fmt.pix.height;
  picture->fourcc = format->fmt.pix.pixelformat;
  picture->bytes_per_line = format->fmt.pix.bytesperline;
  picture->image_size = format->fmt.pix.sizeimage;
}

int morse_video_get_format(int fd, morse_video_picture *picture) {
  struct v4l2_format format;
  memset(&format, 0, sizeof format);
  format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (video_ioctl(fd, VIDIOC_G_FMT, &format) == -1) return -1;
  read_picture(&format, picture);
  return 0;
}

int morse_video_set_format(int fd, morse_video_picture *picture) {
  struct v4l2_format format;
  memset(&format, 0, sizeof format);
  format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  format.fmt.pix.width = picture->width;
  format.fmt.pix.height = picture->height;
  format.fmt.pix.pixelformat = picture->fourcc;
  format.fmt.pix.field = V4L2_FIELD_NONE;
  if (video_ioctl(fd, VIDIOC_S_FMT, &format) == -1) return -1;
  read_picture(&format, picture);
  return 0;
}

int morse_video_get_interval(int fd, unsigned int *numerator, unsigned int *denominator) {
  struct v4l2_streamparm parameters;
  memset(&parameters, 0, sizeof parameters);
  parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (video_ioctl(fd, VIDIOC_G_PARM, &parameters) == -1) return -1;
  *numerator = parameters.parm.capture.timeperframe.numerator;
  *denominator = parameters.parm.capture.timeperframe.denominator;
  return 0;
}

int morse_video_set_interval(int fd, unsigned int *numerator, unsigned int *denominator) {
  struct v4l2_streamparm parameters;
  memset(&parameters, 0, sizeof parameters);
  parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  parameters.parm.capture.timeperframe.numerator = *numerator;
  parameters.parm.capture.timeperframe.denominator = *denominator;
  if (video_ioctl(fd, VIDIOC_S_PARM, &parameters) == -1) return -1;
  *numerator = parameters.parm.capture.timeperframe.numerator;
  *denominator = parameters.parm.capture.timeperframe.denominator;
  return 0;
}

int morse_video_request_buffers(int fd, unsigned int count) {
  struct v4l2_requestbuffers request;
  memset(&request, 0, sizeof request);
  request.count = count;
  request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  request.memory = V4L2_MEMORY_MMAP;
  if (video_ioctl(fd, VIDIOC_REQBUFS, &request) == -1) return -1;
  return (int)request.count;
}

int morse_video_map_buffer(int fd, unsigned int index, void **start, size_t *length) {
  struct v4l2_buffer buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.index = index;
  buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  buffer.memory = V4L2_MEMORY_MMAP;
  if (video_ioctl(fd, VIDIOC_QUERYBUF, &buffer) == -1) return -1;
  void *mapped = mmap(NULL, buffer.length, PROT_READ, MAP_SHARED, fd, buffer.m.offset);
  if (mapped == MAP_FAILED) return -1;
  *start = mapped;
  *length = buffer.length;
  return 0;
}

void morse_video_unmap_buffer(void *start, size_t length) { munmap(start, length); }

int morse_video_queue(int fd, unsigned int index) {
  struct v4l2_buffer buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.index = index;
  buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  buffer.memory = V4L2_MEMORY_MMAP;
  return video_ioctl(fd, VIDIOC_QBUF, &buffer) == -1 ? -1 : 0;
}

int morse_video_dequeue(int fd, morse_video_buffer *filled) {
  struct v4l2_buffer buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  buffer.memory = V4L2_MEMORY_MMAP;
  if (video_ioctl(fd, VIDIOC_DQBUF, &buffer) == -1) return -1;
  filled->index = buffer.index;
  filled->bytes_used = buffer.bytesused;
  filled->sequence = buffer.sequence;
  filled->flags = buffer.flags;
  filled->timestamp_ns =
      (long long)buffer.timestamp.tv_sec * 1000000000LL + (long long)buffer.timestamp.tv_usec * 1000LL;
  return 0;
}

int morse_video_stream(int fd, int on) {
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  return video_ioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type) == -1 ? -1 : 0;
}

int morse_video_query_control(int fd, unsigned int id, morse_video_control *control) {
  struct v4l2_queryctrl query;
  memset(&query, 0, sizeof query);
  query.id = id;
  if (video_ioctl(fd, VIDIOC_QUERYCTRL, &query) == -1) return -1;
  control->id = query.id;
  control->type = query.type;
  copy_text(control->name, sizeof control->name, query.name);
  control->minimum = query.minimum;
  control->maximum = query.maximum;
  control->step = query.step;
  control->default_value = query.default_value;
  control->flags = query.flags;
  return 0;
}

int morse_video_menu_has(int fd, unsigned int id, int value) {
  struct v4l2_querymenu menu;
  memset(&menu, 0, sizeof menu);
  menu.id = id;
  menu.index = (__u32)value;
  return video_ioctl(fd, VIDIOC_QUERYMENU, &menu) == 0;
}

int morse_video_get_control(int fd, unsigned int id, int *value) {
  struct v4l2_control control = {.id = id, .value = 0};
  if (video_ioctl(fd, VIDIOC_G_CTRL, &control) == -1) return -1;
  *value = control.value;
  return 0;
}

int morse_video_set_control(int fd, unsigned int id, int value) {
  struct v4l2_control control = {.id = id, .value = value};
  return video_ioctl(fd, VIDIOC_S_CTRL, &control) == -1 ? -1 : 0;
}
