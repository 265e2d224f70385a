// vidctl DEVICE: prints the controls of a V4L2 device that receive --camera may change, one
// "NAME VALUE" line each ("autogain 1"), for the scenarios that check they are put back.
// Controls the device lacks are left out. Runs inside the test VM; built statically.
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: vidctl DEVICE\n");
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
