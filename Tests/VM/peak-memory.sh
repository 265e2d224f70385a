#!/bin/bash
# Tests/VM/peak-memory.sh PATH_TO_MORSETORCH
#
# What the executable as it ships costs in memory, on the kernel of Debian trixie (6.12).
# Boots that kernel for the binary's architecture under qemu with a small initramfs (busybox,
# the executable, the benchmark's launcher Sources/morsetorch-benchmark/C/usage.c, which
# reports wait4's peak RSS, and guest/peak-memory-init), and three times each measures the
# private memory (Anonymous of smaps_rollup: heap, stacks and every page written) of
# `send` mid-message and of `receive --edges` of "CQ DE N0CALL" mid-stream, on a fake LED of
# plain files. Fails if either holds over 512 kB, a run ends with another status, decodes
# something else, or leaves the LED otherwise than it found it. The peak RSS of each run is
# printed for the record, not judged: most of it is the executable's clean pages, shared with
# the page cache (issue 32: the 4 MiB peak-RSS target measured those, and was dropped).
#
# Needs what Tests/VM/run.sh installs (qemu, busybox-static, gcc, the aarch64 cross gcc) and
# the Debian archive: trixie's kernel and busybox come through an apt configuration of its
# own under VM_WORK_DIR (the host's sources stay as they are), and are kept there.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${VM_WORK_DIR:-$here/work}/peak-memory
limit_kb=512

say() { echo "peak-memory: $*"; }
fail() {
  say "FAIL: $*"
  exit 1
}

[ $# -eq 1 ] || { echo "usage: $0 PATH_TO_MORSETORCH_BINARY" >&2; exit 64; }
binary=$(readlink -f "$1" 2>/dev/null || true)
[ -n "$binary" ] && [ -x "$binary" ] || fail "no executable morsetorch at '$1'"
case $(od -An -tx1 -j18 -N2 "$binary" | tr -d ' \n') in  # the ELF header's e_machine
  3e00) arch=x86_64 deb_arch=amd64 cc=gcc console=ttyS0
    qemu=(qemu-system-x86_64 -accel tcg -cpu max) ;;
  b700) arch=aarch64 deb_arch=arm64 cc=aarch64-linux-gnu-gcc console=ttyAMA0
    qemu=(qemu-system-aarch64 -M virt -cpu cortex-a72 -accel tcg) ;;
  *) fail "$binary is for no architecture this test boots" ;;
esac
for tool in "${qemu[0]}" "$cc" busybox apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Tests/VM/run.sh installs what this needs)"
done

# --- trixie's kernel and busybox, through an apt configuration of our own ----------------
apt=$work/apt
mkdir -p "$apt/etc" "$apt/lists/partial" "$apt/cache/archives/partial" || fail "cannot create $work"
: >"$apt/etc/none.list"
cat >"$apt/etc/trixie.sources" <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Architectures: amd64 arm64
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
cat >"$apt/apt.conf" <<CONF
Dir::Etc::SourceList "$apt/etc/none.list";
Dir::Etc::SourceParts "$apt/etc";
Dir::State::Lists "$apt/lists";
Dir::Cache "$apt/cache";
APT::Architectures { "amd64"; "arm64"; };
CONF
export APT_CONFIG=$apt/apt.conf
timeout 600 apt-get update -qq >"$work/apt.log" 2>&1 || say "apt-get update failed; using what is kept"
image=$(apt-cache depends "linux-image-$deb_arch:$deb_arch" 2>/dev/null |
  sed -n 's/^ *Depends: //p' | grep -E '^linux-image-[0-9]' | head -1)
image=${image%%:*}
abi=${image#linux-image-}
[ -n "$abi" ] || abi=$(ls -1 "$work" | grep -- "-$deb_arch\$" | sort -V | tail -1)
[ -n "$abi" ] || fail "cannot tell trixie's kernel for $deb_arch: $(tail -2 "$work/apt.log")"
kept=$work/$abi
if [ ! -s "$kept/vmlinuz" ] || [ ! -s "$kept/busybox" ]; then
  scratch=$work/scratch-$abi
  rm -rf "$scratch" && mkdir -p "$scratch/debs" || fail "cannot create $scratch"
  say "downloading linux-image-$abi and busybox-static:$deb_arch from trixie"
  (cd "$scratch/debs" && timeout 900 apt-get download -q "linux-image-$abi:$deb_arch" \
    "busybox-static:$deb_arch") >"$scratch/download.log" 2>&1 ||
    fail "apt-get download failed: $(tail -3 "$scratch/download.log")"
  for deb in "$scratch"/debs/*.deb; do dpkg-deb -x "$deb" "$scratch/root" || fail "cannot unpack $deb"; done
  mkdir -p "$kept" &&
    cp "$scratch"/root/boot/vmlinuz-* "$kept/vmlinuz" &&
    cp "$(ls "$scratch"/root/{usr/,}bin/busybox 2>/dev/null | head -1)" "$kept/busybox" ||
    fail "no kernel image or busybox in the packages"
  rm -rf "$scratch"
fi

# --- the guest: busybox, the executable, the usage launcher, /init -------------------------
stage=$work/stage-$arch
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/tmp" "$stage/dev" ||
  fail "cannot create $stage"
cp "$kept/busybox" "$stage/bin/busybox" && cp "$binary" "$stage/morsetorch" &&
  cp "$here/guest/peak-memory-init" "$stage/init" || fail "cannot fill $stage"
usage_c=$here/../../Sources/morsetorch-benchmark/C/usage.c
"$cc" -static -O2 -Wall -o "$stage/usage" "$usage_c" || fail "cannot build usage.c with $cc"
(cd "$stage" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initramfs-$arch.gz" ||
  fail "cannot pack the initramfs"

log=$work/console-$arch.log
timeout -k 10 300 "${qemu[@]}" -smp 1 -m 512 -nographic -monitor none -nic none -no-reboot \
  -kernel "$kept/vmlinuz" -initrd "$work/initramfs-$arch.gz" \
  -append "console=$console panic=-1 rdinit=/init" </dev/null >"$log" 2>&1
results=$(grep -a '^@@ ' "$log" | tr -d '\r')
grep -q '^@@ done' <<<"$results" || fail "the guest did not finish; its console's last lines: $(tail -5 "$log")"

# --- the figures, and what must hold -------------------------------------------------------
problems=()
figures() {  # "@@ send-private KB" or, for the peak of each whole run, "usage: STATUS USER SYSTEM PEAK"
  case $1 in
    *-private) sed -n "s/^@@ $1 \([0-9]*\) *$/\1/p" <<<"$results" | tr '\n' ' ' ;;
    *) sed -n "s/^@@ $1 .*usage: [0-9]* [0-9]* [0-9]* \([0-9]*\) *$/\1/p" <<<"$results" | tr '\n' ' ' ;;
  esac
}
send=$(figures send-private) receive=$(figures receive-private)
send_peak=$(figures send) receive_peak=$(figures receive)
[ "$(wc -w <<<"$send $receive")" -eq 6 ] || problems+=("not every run reported its private memory")
for kb in $send $receive; do
  [ "$kb" -le "$limit_kb" ] || problems+=("a run held $kb kB of private memory, over $limit_kb kB")
done
grep '^@@ \(send\|receive\) ' <<<"$results" | grep -qv 'usage: 0 ' &&
  problems+=("a run exited with another status: $(grep '^@@ \(send\|receive\) ' <<<"$results" | grep -v 'usage: 0 ' | head -1)")
[ "$(grep -c '^@@ receive CQ DE N0CALL usage: 0 ' <<<"$results")" -eq 3 ] ||
  problems+=("receive did not decode CQ DE N0CALL each time")
grep -q '^@@ led after: 0 timer$' <<<"$results" ||
  problems+=("the LED was left as: $(sed -n 's/^@@ led after: //p' <<<"$results")")
kernel=$(sed -n 's/^@@ kernel //p' <<<"$results")
say "$kernel: private memory: send ${send}kB, receive ${receive}kB (at most $limit_kb kB); peak RSS (clean pages of the executable included): send ${send_peak}kB, receive ${receive_peak}kB"
if [ ${#problems[@]} -gt 0 ]; then
  for problem in "${problems[@]}"; do say "FAIL: $problem"; done
  exit 1
fi
say "passed"
