#!/usr/bin/env python3
"""Small host-side tools for the VM test, standard library only.

  tools.py extract-vmlinux VMLINUZ OUT   unpack the xz-compressed ELF kernel from a bzImage
                                         (qemu boots the ELF through its PVH entry, ~2x faster)
  tools.py cpio DIR OUT                  write DIR as an initramfs (cpio "newc", uncompressed)
  tools.py wire-serial PORT SAVED        put the host's 16550 PORT in loopback (RTS to CTS,
                                         DTR to DSR), its settings and lines saved to SAVED,
                                         if it has one whose loopback works (status 0; else 1)
  tools.py unwire-serial PORT SAVED      put PORT back as SAVED says

The guest's third 16550 is the host's PORT when it could be wired (qemu's tty backend passes
the guest's DTR and RTS to it and polls its lines every 10 ms, raising the guest's
modem-status interrupt on a change): the only way here for a guest's RTS to reach its own CTS
with interrupts, which qemu's own 16550 loopback never raises.
"""

import fcntl
import json
import lzma
import os
import stat
import struct
import sys
import termios

TIOCM_LOOP = 0x8000


def extract_vmlinux(vmlinuz_path, out_path):
    data = open(vmlinuz_path, "rb").read()
    start = data.find(b"\xfd7zXZ\x00")
    if start < 0:
        sys.exit(f"tools.py: no xz stream in {vmlinuz_path} (only xz kernels are handled)")
    elf = lzma.LZMADecompressor().decompress(data[start:])
    if elf[:4] != b"\x7fELF":
        sys.exit(f"tools.py: the xz stream in {vmlinuz_path} is not an ELF kernel")
    with open(out_path + ".tmp", "wb") as out:
        out.write(elf)
    os.replace(out_path + ".tmp", out_path)


def write_cpio(root, out_path):
    """Writes every file, directory and symlink under root, owned by root, as newc cpio."""
    inode = 1

    def entry(out, name, mode, body, nlink=1):
        nonlocal inode
        name_bytes = name.encode() + b"\0"
        fields = [inode, mode, 0, 0, nlink, 0, len(body), 0, 0, 0, 0, len(name_bytes), 0]
        inode += 1
        header = b"070701" + b"".join(b"%08X" % f for f in fields)
        out.write(header + name_bytes)
        out.write(b"\0" * (-(len(header) + len(name_bytes)) % 4))
        out.write(body)
        out.write(b"\0" * (-len(body) % 4))

    with open(out_path + ".tmp", "wb") as out:
        for directory, subdirectories, files in os.walk(root):
            subdirectories.sort()
            relative = os.path.relpath(directory, root)
            if relative != ".":
                entry(out, relative, stat.S_IFDIR | 0o755, b"", nlink=2)
            for name in sorted(files + [d for d in subdirectories
                                        if os.path.islink(os.path.join(directory, d))]):
                path = os.path.join(directory, name)
                archived = os.path.normpath(os.path.join(relative, name))
                if os.path.islink(path):
                    entry(out, archived, stat.S_IFLNK | 0o777, os.readlink(path).encode())
                else:
                    mode = os.stat(path).st_mode
                    body = open(path, "rb").read()
                    entry(out, archived, stat.S_IFREG | (mode & 0o7777), body)
        entry(out, "TRAILER!!!", 0, b"")
    os.replace(out_path + ".tmp", out_path)


def modem_lines(fd):
    return struct.unpack("i", fcntl.ioctl(fd, termios.TIOCMGET, struct.pack("i", 0)))[0]


def switch_lines(fd, bits, up):
    fcntl.ioctl(fd, termios.TIOCMBIS if up else termios.TIOCMBIC, struct.pack("i", bits))


def wire_serial(port, saved_path):
    """Loopback on the host's PORT, if it is a 16550 whose CTS then follows RTS."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as error:
        print(f"wire-serial: {port}: {error.strerror}", file=sys.stderr)
        return 1
    try:
        saved = {"lines": modem_lines(fd), "termios": termios.tcgetattr(fd)}
        with open(saved_path, "w") as out:
            json.dump(saved, out, default=lambda b: b.decode("latin-1"))
        switch_lines(fd, TIOCM_LOOP, True)
        seen = []
        for up in (False, True, False):
            switch_lines(fd, termios.TIOCM_RTS, up)
            seen.append(bool(modem_lines(fd) & termios.TIOCM_CTS) == up)
        if not all(seen):
            print(f"wire-serial: {port}: CTS does not follow RTS in loopback", file=sys.stderr)
            unwire_serial(port, saved_path, fd)
            return 1
        return 0
    except OSError as error:
        print(f"wire-serial: {port}: {error.strerror}", file=sys.stderr)
        return 1
    finally:
        os.close(fd)


def unwire_serial(port, saved_path, fd=None):
    """PORT's loopback, lines and settings as wire_serial found them."""
    with open(saved_path) as source:
        saved = json.load(source)
    own = fd is None
    if own:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        attributes = saved["termios"]
        attributes[6] = [c.encode("latin-1") if isinstance(c, str) else c for c in attributes[6]]
        termios.tcsetattr(fd, termios.TCSANOW, attributes)
        for bit in (TIOCM_LOOP, termios.TIOCM_RTS, termios.TIOCM_DTR):
            switch_lines(fd, bit, bool(saved["lines"] & bit))
    finally:
        if own:
            os.close(fd)
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "extract-vmlinux":
        extract_vmlinux(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "cpio":
        write_cpio(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "wire-serial":
        sys.exit(wire_serial(argv[2], argv[3]))
    elif len(argv) == 4 and argv[1] == "unwire-serial":
        sys.exit(unwire_serial(argv[2], argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
