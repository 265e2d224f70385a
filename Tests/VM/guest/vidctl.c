// vidctl DEVICE: prints the controls of a V4L2 device that receive --camera may change, one
// "NAME VALUE" line each ("autogain 1"), for the scenarios that check they are put back.
// Controls the device lacks are left out.
// vidctl DEVICE frames N: streams N frames (memory-mapped, the current format) and prints
// "frame SEQUENCE TIMESTAMP_NS MEAN_OF_FIRST_BYTES" for each: what the camera shows.
// Runs inside the test VM; built statically.
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int frames(int fd, int count, const char *fourcc) {
  struct v4l2_format format = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  if (fourcc && ioctl(fd, VIDIOC_G_FMT, &format) == 0) {
    format.fmt.pix.pixelformat = v4l2_fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
    format.fmt.pix.width = 320;
    format.fmt.pix.height = 180;
    if (ioctl(fd, VIDIOC_S_FMT, &format) < 0) perror("vidctl: S_FMT");
  }
  struct v4l2_requestbuffers request = {
      .count = 4, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
  if (ioctl(fd, VIDIOC_G_FMT, &format) < 0 || ioctl(fd, VIDIOC_REQBUFS, &request) < 0) {
    perror("vidctl: format or buffers");
    return 1;
  }
  void *starts[8];
  for (unsigned i = 0; i < request.count && i < 8; i++) {
    struct v4l2_buffer buffer = {
        .index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (ioctl(fd, VIDIOC_QUERYBUF, &buffer) < 0) return 1;
    starts[i] = mmap(NULL, buffer.length, PROT_READ, MAP_SHARED, fd, buffer.m.offset);
    if (starts[i] == MAP_FAILED || ioctl(fd, VIDIOC_QBUF, &buffer) < 0) return 1;
  }
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (ioctl(fd, VIDIOC_STREAMON, &type) < 0) return 1;
  printf("format %.4s %ux%u\n", (char *)&format.fmt.pix.pixelformat, format.fmt.pix.width,
         format.fmt.pix.height);
  for (int n = 0; n < count; n++) {
    struct v4l2_buffer buffer = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (ioctl(fd, VIDIOC_DQBUF, &buffer) < 0) return 1;
    const unsigned char *bytes = starts[buffer.index];
    unsigned long long total = 0;
    unsigned used = buffer.bytesused < 4096 ? buffer.bytesused : 4096;
    for (unsigned i = 0; i < used; i++) total += bytes[i];
    printf("frame %u %lld %llu\n", buffer.sequence,
           (long long)buffer.timestamp.tv_sec * 1000000000LL + buffer.timestamp.tv_usec * 1000LL,
           used ? total / used : 0);
    fflush(stdout);
    if (ioctl(fd, VIDIOC_QBUF, &buffer) < 0) return 1;
  }
  ioctl(fd, VIDIOC_STREAMOFF, &type);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[2], "frames") == 0) {
    int fd = open(argv[1], O_RDWR | O_CLOEXEC);
    return fd < 0 ? 1 : frames(fd, atoi(argv[3]), argc > 4 ? argv[4] : NULL);
  }
  if (argc != 2) {
    fprintf(stderr, "usage: vidctl DEVICE [frames N]\n");
    return 64;
  }
  int fd = open(argv[1], O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "vidctl: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  static const struct {
    unsigned id;
    const char *name;
  } controls[] = {
      {V4L2_CID_AUTOGAIN, "autogain"},
      {V4L2_CID_GAIN, "gain"},
      {V4L2_CID_EXPOSURE_AUTO, "exposure_auto"},
      {V4L2_CID_EXPOSURE_AUTO_PRIORITY, "exposure_auto_priority"},
      {V4L2_CID_EXPOSURE_ABSOLUTE, "exposure_absolute"},
      {V4L2_CID_BRIGHTNESS, "brightness"},
  };
  for (size_t i = 0; i < sizeof controls / sizeof controls[0]; i++) {
    struct v4l2_control control = {.id = controls[i].id};
    if (ioctl(fd, VIDIOC_G_CTRL, &control) == 0) printf("%s %d\n", controls[i].name, control.value);
  }
  close(fd);
  return 0;
}
