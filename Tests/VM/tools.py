#!/usr/bin/env python3
"""Small host-side tools for the VM test, standard library only.

  tools.py extract-vmlinux VMLINUZ OUT   unpack the xz-compressed ELF kernel from a bzImage
                                         (qemu boots the ELF through its PVH entry, ~2x faster)
  tools.py cpio DIR OUT                  write DIR as an initramfs (cpio "newc", uncompressed)
"""

import lzma
import os
import stat
import sys


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


def main(argv):
    if len(argv) == 4 and argv[1] == "extract-vmlinux":
        extract_vmlinux(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "cpio":
        write_cpio(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
