#!/bin/bash
# Tests/VM/run.sh PATH_TO_MORSETORCH
#
# Runs the built morsetorch against the real Linux LED class: boots Debian bookworm's stock
# kernel for the binary's architecture (x86_64, or aarch64 on qemu's `virt` board with a
# Cortex-A72) under qemu (software emulation, one vCPU), creates LEDs from user space with the
# kernel's uleds driver, runs the scenarios in Tests/VM/scenarios.py and scores what the
# kernel reported. Prints one PASS/FAIL line per scenario, the edge-timing figures, and
# ends with "vm: N passed, N failed". Exit status 0 only if everything passed.
#
# Needs qemu-system-x86 (qemu-system-arm for aarch64), busybox-static, gcc, make, libc6-dev
# (gcc-aarch64-linux-gnu to cross-build the modules and helpers for aarch64), python3 and apt
# access to the Debian archive (for the kernel packages; for aarch64 the arm64 architecture
# is added to dpkg). When they are missing they are installed with
# apt-get if running as root or with CI=true; otherwise the test is skipped when qemu is
# absent (never in CI: with CI=true a VM that cannot start is a failure).
#
# Environment:
#   VM_WORK_DIR            cache and scratch (default Tests/VM/work, git-ignored)
#   VM_TIMEOUT             seconds allowed for the whole VM run (default 300)
#   VM_TIMING_ROUNDS       rounds of the side-by-side timing runs (default 3)
#   VM_EXPECTED_FAILURES   scenario names reported as XFAIL instead of failing the run
#   VM_ONLY                only these scenarios (names, space-separated; for work on them)
#   VM_KERNEL_ABI          kernel to use, e.g. 6.1.0-56-amd64 (default: linux-image-ARCH's)
#   VM_ARCH                x86_64 or aarch64 (default: the binary's, read from its ELF header)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${VM_WORK_DIR:-$here/work}
vm_timeout=${VM_TIMEOUT:-300}
started_at=$(date +%s)

say() { echo "vm: $*"; }
# A stage that cannot be set up fails the test, with the reason; it is never skipped in CI.
cannot_run() {
  say "FAIL: $*"
  say "0 passed, 1 failed"
  exit 1
}
skip() {
  say "SKIP: $*"
  exit 0
}

if [ $# -ne 1 ]; then
  echo "usage: $0 PATH_TO_MORSETORCH_BINARY" >&2
  exit 64
fi
binary=$(readlink -f "$1" 2>/dev/null || true)
[ -n "$binary" ] && [ -x "$binary" ] || cannot_run "no executable morsetorch at '$1'"

# The guest's architecture is the binary's: e_machine, bytes 18-19 of the ELF header.
elf_machine=$(od -An -tx1 -j18 -N2 "$binary" | tr -d ' \n')
case ${VM_ARCH:-$elf_machine} in
  x86_64 | 3e00)
    arch=x86_64 deb_arch=amd64 qemu=qemu-system-x86_64 qemu_package=qemu-system-x86
    cc=gcc console_tty=ttyS0 cross=() ;;
  aarch64 | b700)
    arch=aarch64 deb_arch=arm64 qemu=qemu-system-aarch64 qemu_package=qemu-system-arm
    cc=aarch64-linux-gnu-gcc console_tty=ttyAMA0
    cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
  *) cannot_run "$binary is for no architecture this test boots (ELF machine $elf_machine)" ;;
esac

# --- Host tools -------------------------------------------------------------------------

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else
    return 1; fi
}
can_install() { [ "$(id -u)" = 0 ] || { [ "${CI:-}" = true ] && command -v sudo >/dev/null; }; }
is_static_busybox() { [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; }

mkdir -p "$work" || cannot_run "cannot create $work"
missing=()
command -v "$qemu" >/dev/null || missing+=("$qemu_package")
is_static_busybox || missing+=(busybox-static)
command -v gcc >/dev/null || missing+=(gcc)
if [ "$arch" = aarch64 ]; then
  command -v "$cc" >/dev/null || missing+=(gcc-aarch64-linux-gnu)
  [ -e /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
fi
command -v make >/dev/null || missing+=(make)
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || missing+=(libc6-dev)
command -v python3 >/dev/null || missing+=(python3)
# The sound scenarios (x86_64): the guest plays through the host's aplay (and its libraries),
# and the host's multimon-ng and sox read back what it heard.
if [ "$arch" = x86_64 ]; then
  command -v aplay >/dev/null || missing+=(alsa-utils)
  command -v multimon-ng >/dev/null || missing+=(multimon-ng)
  command -v sox >/dev/null || missing+=(sox)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if can_install; then
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    { as_root timeout 600 apt-get update -qq &&
      as_root timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
      >"$work/apt.log" 2>&1 || true
    command -v "$qemu" >/dev/null && is_static_busybox && command -v "$cc" >/dev/null &&
      command -v python3 >/dev/null ||
      cannot_run "apt-get install ${missing[*]} failed: $(tail -3 "$work/apt.log" 2>/dev/null)"
  elif [ "${CI:-}" != true ] && ! command -v "$qemu" >/dev/null; then
    skip "$qemu is not installed (apt-get install $qemu_package busybox-static); run as root or with CI=true to install it"
  else
    cannot_run "missing ${missing[*]} (apt-get install ${missing[*]}); this user cannot install them (needs root, or CI=true with sudo)"
  fi
fi

# The arm64 kernel packages (and busybox) come from the arm64 half of the archive.
if [ "$deb_arch" != "$(dpkg --print-architecture)" ] &&
  ! dpkg --print-foreign-architectures | grep -qx "$deb_arch"; then
  can_install || cannot_run "dpkg does not know the $deb_arch architecture (dpkg --add-architecture $deb_arch && apt-get update)"
  say "adding the $deb_arch architecture to dpkg"
  as_root dpkg --add-architecture "$deb_arch" && as_root timeout 600 apt-get update -qq >/dev/null 2>&1 ||
    cannot_run "dpkg --add-architecture $deb_arch && apt-get update failed"
fi

# --- Kernel, trigger modules and uleds.ko (cached per kernel ABI) ----------------------

apt_depends() {  # the package names $1 depends on, matching $2
  apt-cache depends "$1" 2>/dev/null | sed -n 's/^ *Depends: //p' | grep -E "$2" | head -1
}
choose_kernel() {
  abi=${VM_KERNEL_ABI:-}
  if [ -z "$abi" ]; then
    local image
    image=$(apt_depends "linux-image-$deb_arch:$deb_arch" '^linux-image-[0-9]')
    if [ -z "$image" ] && can_install; then
      as_root timeout 600 apt-get update -qq >/dev/null 2>&1
      image=$(apt_depends "linux-image-$deb_arch:$deb_arch" '^linux-image-[0-9]')
    fi
    image=${image%%:*}
    abi=${image#linux-image-}
    if [ -z "$abi" ]; then  # offline: use what is cached
      abi=$(ls -1 "$work/kernel" 2>/dev/null | grep -v '\.new$' | grep -- "-$deb_arch\$" | sort -V | tail -1)
    fi
  fi
  [ -n "$abi" ] || cannot_run "cannot tell which kernel to use: apt-cache knows no linux-image-$deb_arch and nothing is cached"
  kernel=$work/kernel/$abi
}
choose_kernel

build_kernel() {
  local scratch=$work/scratch-$abi
  rm -rf "$scratch" "$kernel.new" &&
    mkdir -p "$scratch/debs" "$scratch/root" "$scratch/uleds" || return 1
  # 6.1.0-56-amd64: linux-headers-6.1.0-56-common, and linux-kbuild-6.1 (the build host's
  # architecture: its programs run here), linux-source-6.1.
  local headers=linux-headers-$abi common=linux-headers-${abi%-*}-common
  local kbuild=linux-kbuild-${abi%%.0-*} source_package=linux-source-${abi%%.0-*}
  local extra=()
  # The guest's busybox, when it is not the host's own.
  [ "$arch" = "$(uname -m)" ] || extra=("busybox-static:$deb_arch")
  say "downloading linux-image-$abi, $headers, $common, $kbuild, $source_package ${extra[*]}"
  (cd "$scratch/debs" && timeout 900 apt-get download -q "linux-image-$abi:$deb_arch" \
    "$headers:$deb_arch" "$common" "$kbuild" "$source_package" "${extra[@]}" \
    >"$scratch/download.log" 2>&1) || { tail -5 "$scratch/download.log"; return 1; }
  for deb in "$scratch"/debs/linux-{image,headers,kbuild}*.deb; do
    dpkg-deb -x "$deb" "$scratch/root" || return 1
  done
  # uleds (CONFIG_LEDS_USER) is not in Debian's kernel: build it from the kernel's own source.
  dpkg-deb --fsys-tarfile "$scratch"/debs/linux-source-*.deb |
    tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
    tar -xJ -C "$scratch" --wildcards '*/drivers/leds/uleds.c' '*/drivers/gpio/gpio-sim.c' \
      '*/drivers/gpio/gpiolib.h' '*/kernel/irq/irq_sim.c' || return 1
  cp "$scratch"/linux-source-*/drivers/leds/uleds.c "$scratch/uleds/" || return 1
  echo 'obj-m := uleds.o' >"$scratch/uleds/Kbuild"
  # Nor is gpio-sim (CONFIG_GPIO_SIM), nor the irq_sim it needs (CONFIG_IRQ_SIM): both go in
  # one module. irq_sim.c's one call the kernel does not export, handle_simple_irq() on
  # irq_to_desc(), becomes the exported generic_handle_irq(), which does the same for it.
  # A kernel with irq_sim built in (CONFIG_IRQ_SIM=y) exports irq_domain_create_sim() & co.
  # itself: there gpio-sim is built alone, or the module's copies would clash with them.
  mkdir -p "$scratch/gpio-sim" &&
    cp "$scratch"/linux-source-*/drivers/gpio/gpiolib.h "$scratch/gpio-sim/" || return 1
  local config=$scratch/root/boot/config-$abi
  if grep -q '^CONFIG_IRQ_SIM=y' "$config"; then
    cp "$scratch"/linux-source-*/drivers/gpio/gpio-sim.c "$scratch/gpio-sim/" || return 1
    echo 'obj-m := gpio-sim.o' >"$scratch/gpio-sim/Kbuild"
  else
    cp "$scratch"/linux-source-*/drivers/gpio/gpio-sim.c "$scratch/gpio-sim/gpio-sim-core.c" &&
      sed 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' \
        "$scratch"/linux-source-*/kernel/irq/irq_sim.c >"$scratch/gpio-sim/irq_sim.c" || return 1
    grep -q 'generic_handle_irq(' "$scratch/gpio-sim/irq_sim.c" ||
      { echo "irq_sim.c: handle_simple_irq(irq_to_desc(...)) not found to replace"; return 1; }
    printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-core.o irq_sim.o\n' >"$scratch/gpio-sim/Kbuild"
  fi
  local headers_dir=$scratch/root/usr/src/$headers
  # The headers' Makefile includes the common part by absolute path (/usr/src/...).
  sed -i "s|^include /usr/src/|include $scratch/root/usr/src/|" "$headers_dir/Makefile"
  mkdir -p "$kernel.new/modules" || return 1
  local module built_at took
  for module in uleds gpio-sim; do
    built_at=$(date +%s%N)
    timeout 600 make -s -C "$headers_dir" "${cross[@]}" M="$scratch/$module" modules \
      >"$scratch/make.log" 2>&1 ||
      { tail -20 "$scratch/make.log"; return 1; }
    took=$((($(date +%s%N) - built_at) / 100000000))
    echo "$module.ko built in $((took / 10)).$((took % 10)) s" | tee -a "$kernel.new/build-times" |
      sed 's/^/vm: /'
    cp "$scratch/$module/$module.ko" "$kernel.new/modules/" || return 1
  done
  # gpio-sim is configured through configfs, a module in Debian's kernel (loaded first: the
  # guest loads the modules in name order).
  if ! grep -q '^CONFIG_CONFIGFS_FS=y' "$config"; then
    cp "$scratch/root/lib/modules/$abi/kernel/fs/configfs/configfs.ko" "$kernel.new/modules/" ||
      return 1
  fi
  # The triggers the kernel has as modules (arm64's has heartbeat built in).
  local triggers=$scratch/root/lib/modules/$abi/kernel/drivers/leds/trigger
  for trigger in timer heartbeat pattern oneshot transient default-on netdev; do
    [ -e "$triggers/ledtrig-$trigger.ko" ] || grep -qi "^CONFIG_LEDS_TRIGGER_${trigger//-/_}=y" "$config" ||
      { echo "ledtrig-$trigger is neither a module nor built in"; return 1; }
    [ ! -e "$triggers/ledtrig-$trigger.ko" ] || cp "$triggers/ledtrig-$trigger.ko" "$kernel.new/modules/" ||
      return 1
  done
  # The virtual camera (vivid) and the media modules it needs, in the order they load (the
  # guest insmods them as listed in media/order; vivid with one capture node only).
  mkdir -p "$kernel.new/modules/media" || return 1
  local media=$scratch/root/lib/modules/$abi/kernel/drivers/media module_path
  for module in mc/mc v4l2-core/videodev common/videobuf2/videobuf2-common \
    common/videobuf2/videobuf2-memops common/videobuf2/videobuf2-v4l2 \
    common/videobuf2/videobuf2-vmalloc common/videobuf2/videobuf2-dma-contig \
    v4l2-core/v4l2-dv-timings common/v4l2-tpg/v4l2-tpg rc/rc-core cec/core/cec \
    test-drivers/vivid/vivid; do
    module_path=$media/$module.ko
    if [ -e "$module_path" ]; then
      cp "$module_path" "$kernel.new/modules/media/" || return 1
      echo "$(basename "$module")" >>"$kernel.new/modules/media/order"
    elif ! grep -qi "^CONFIG_$(basename "$module" | tr 'a-z-' 'A-Z_')=y" "$config"; then
      echo "$module.ko: neither a module of $abi nor built in (the camera scenarios need it)"
    fi
  done
  [ -e "$kernel.new/modules/media/vivid.ko" ] || { echo "no vivid.ko in $abi"; return 1; }
  # The loopback sound card (snd-aloop) and what it needs, in the order they load: what the
  # guest plays on its playback side, it captures on its capture side.
  mkdir -p "$kernel.new/modules/sound" || return 1
  local sound=$scratch/root/lib/modules/$abi/kernel/sound config_name
  for module in soundcore:SOUND core/snd:SND core/snd-timer:SND_TIMER core/snd-pcm:SND_PCM \
    drivers/snd-aloop:SND_ALOOP; do
    config_name=${module#*:} module=${module%%:*}
    if [ -e "$sound/$module.ko" ]; then
      cp "$sound/$module.ko" "$kernel.new/modules/sound/" || return 1
      basename "$module" >>"$kernel.new/modules/sound/order"
    elif ! grep -q "^CONFIG_$config_name=y" "$config"; then
      echo "$module.ko: neither a module of $abi nor built in (the sound scenarios need it)"
    fi
  done
  [ -e "$kernel.new/modules/sound/snd-aloop.ko" ] || { echo "no snd-aloop.ko in $abi"; return 1; }
  sed -i 's/^vivid$/vivid n_devs=1 node_types=0x1/' "$kernel.new/modules/media/order"
  if [ "$arch" = aarch64 ]; then
    # qemu's virt board: the virtio transport, the virtio console that carries the results
    # (the board has one UART) and the virtio keyboard whose LEDs the tests use. Modules in
    # Debian's arm64 kernel.
    local drivers=$scratch/root/lib/modules/$abi/kernel/drivers
    cp "$drivers/virtio/virtio_mmio.ko" "$drivers/char/virtio_console.ko" \
      "$drivers/virtio/virtio_input.ko" "$kernel.new/modules/" || return 1
    # arm64's vmlinuz is the uncompressed Image qemu boots as it is.
    cp "$scratch/root/boot/vmlinuz-$abi" "$kernel.new/vmlinux" || return 1
    dpkg-deb -x "$scratch"/debs/busybox-static_*.deb "$scratch/busybox" &&
      cp "$scratch/busybox/bin/busybox" "$kernel.new/busybox" || return 1
  else
    python3 "$here/tools.py" extract-vmlinux "$scratch/root/boot/vmlinuz-$abi" \
      "$kernel.new/vmlinux" || return 1
  fi
  cp "$scratch/root/boot/config-$abi" "$kernel.new/config" || return 1
  rm -rf "$kernel" && mv "$kernel.new" "$kernel" && rm -rf "$scratch"
}

# A cache from before a trigger or module was added to the list is made again.
kernel_ready() {
  [ -e "$kernel/vmlinux" ] && [ -e "$kernel/modules/ledtrig-netdev.ko" ] &&
    [ -e "$kernel/modules/gpio-sim.ko" ] && [ -e "$kernel/modules/media/vivid.ko" ] &&
    [ -e "$kernel/modules/sound/snd-aloop.ko" ] &&
    { [ "$arch" = x86_64 ] || { [ -e "$kernel/busybox" ] && [ -e "$kernel/modules/virtio_console.ko" ]; }; }
}
if ! kernel_ready; then
  say "preparing kernel $abi (download, build uleds.ko and gpio-sim.ko, extract vmlinux)"
  rm -rf "$kernel.new"
  prepare_started=$(date +%s)
  if ! build_kernel; then
    # Stale package lists name kernel packages the archive no longer has: refresh, retry once.
    can_install && [ -z "${VM_KERNEL_ABI:-}" ] || cannot_run "could not prepare kernel $abi (see above; scratch in $work/scratch-$abi)"
    say "retrying after apt-get update"
    as_root timeout 600 apt-get update -qq >/dev/null 2>&1
    choose_kernel
    kernel_ready || build_kernel ||
      cannot_run "could not prepare kernel $abi (see above; scratch in $work/scratch-$abi)"
  fi
  say "kernel $abi ready in $(($(date +%s) - prepare_started)) s"
else
  built=$(paste -sd';' "$kernel/build-times" 2>/dev/null | sed 's/;/; /g')
  say "kernel $abi cached in $kernel${built:+ ($built when prepared)}"
fi

# --- Guest helpers and initramfs ---------------------------------------------------------

stage=$work/stage-$arch
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/modules" || cannot_run "cannot create $stage"
for helper in uledrec refwriter edgeplay gpioline vidctl pgrun serialwatch sndcap udpsend; do
  "$cc" -O2 -Wall -Wextra -static -o "$stage/bin/$helper" "$here/guest/$helper.c" ||
    cannot_run "cannot build the guest helper $helper"
done
busybox=/bin/busybox
[ "$arch" = "$(uname -m)" ] || busybox=$kernel/busybox
cp "$busybox" "$stage/bin/busybox" &&
  install -m 755 "$here/guest/ledstate" "$stage/bin/ledstate" &&
  install -m 755 "$here/guest/sendresults" "$stage/bin/sendresults" &&
  install -m 755 "$here/guest/udev-leds" "$stage/bin/udev-leds" &&
  install -m 755 "$here/guest/planted-record" "$stage/bin/planted-record" &&
  install -m 755 "$here/guest/plant-record" "$stage/bin/plant-record" &&
  install -m 755 "$here/guest/init" "$stage/init" &&
  cp "$kernel"/modules/*.ko "$stage/modules/" &&
  cp -r "$kernel/modules/media" "$stage/modules/media" &&
  cp -r "$kernel/modules/sound" "$stage/modules/sound" &&
  cp "$binary" "$stage/bin/morsetorch" ||
  cannot_run "cannot stage the guest files"
# The shared libraries a program needs, staged where it looks for them.
stage_libraries() {
  while read -r library; do
    mkdir -p "$stage$(dirname "$library")" && cp -L "$library" "$stage$library" ||
      cannot_run "cannot copy $library"
  done < <(ldd "$1" 2>/dev/null | grep -oE '/[^ ]+' | sort -u)
}
# The libraries morsetorch needs (with --static-swift-stdlib: libc, libm, libstdc++, ...).
stage_libraries "$binary"
# The player `send --sound` starts (x86_64: the host's own aplay, with its libraries and
# ALSA's configuration); on aarch64 there is none, and the sound scenarios say so.
if [ "$arch" = x86_64 ]; then
  mkdir -p "$stage/usr/bin" "$stage/usr/share" && cp /usr/bin/aplay "$stage/usr/bin/aplay" &&
    cp -r /usr/share/alsa "$stage/usr/share/alsa" || cannot_run "cannot stage aplay"
  stage_libraries /usr/bin/aplay
fi
python3 "$here/scenarios.py" plan "$stage/scenarios.sh" || cannot_run "cannot write the scenario script"
initramfs=$work/initramfs-$arch.cpio
python3 "$here/tools.py" cpio "$stage" "$initramfs" || cannot_run "cannot write the initramfs"

# --- Boot and score -----------------------------------------------------------------------

console=$work/console-$arch.log
results=$work/results-$arch.txt
rm -f "$console" "$results"
if [ "$arch" = aarch64 ]; then
  # virt has one UART (the console): the results go over a virtio console (hvc0); the
  # virtio keyboard brings the input LEDs.
  machine=(-M virt -cpu cortex-a72 -global virtio-mmio.force-legacy=false
    -device virtio-serial-device -chardev "file,id=results,path=$results"
    -device virtconsole,chardev=results -device virtio-keyboard-device)
else
  # ttyS2: a third 16550 for the serial scenarios. Behind it, the host's own 16550
  # (VM_HOST_SERIAL, /dev/ttyS0 by default) in its loopback, if the host has one whose
  # loopback works: the guest's RTS then comes back on its CTS with the modem-status
  # interrupt receive --serial waits for (tools.py says why). Otherwise nothing (null): the
  # guest's own loopback serves the sending scenarios, and the receiving ones say skipped.
  third=null
  host_serial=${VM_HOST_SERIAL:-/dev/ttyS0}
  if [ -c "$host_serial" ] &&
    python3 "$here/tools.py" wire-serial "$host_serial" "$work/host-serial.json"; then
    third=$host_serial
    trap 'python3 "$here/tools.py" unwire-serial "$host_serial" "$work/host-serial.json"' EXIT
    say "ttyS2 is the host's $host_serial, in its loopback until the VM ends"
  else
    say "ttyS2 has nothing behind it: the scenarios that receive on a serial port are skipped"
  fi
  machine=(-serial "file:$results" -serial "$third")
fi
say "booting $abi under qemu (tcg, 1 vCPU); timeout ${vm_timeout}s"
boot_started=$(date +%s)
timeout -k 10 "$vm_timeout" "$qemu" \
  -accel tcg -smp 1 -m 1024 -nographic -monitor none -nic none -no-reboot \
  -serial stdio "${machine[@]}" \
  -kernel "$kernel/vmlinux" -initrd "$initramfs" \
  -append "console=$console_tty quiet loglevel=3 panic=-1 rdinit=/init" \
  </dev/null 2>&1 | tee "$console" | grep -a --line-buffered '^vm-guest:'
qemu_status=${PIPESTATUS[0]}
say "qemu exited with status $qemu_status after $(($(date +%s) - boot_started)) s"
if [ "$qemu_status" = 124 ] || [ "$qemu_status" = 137 ]; then
  say "the VM did not finish within ${vm_timeout}s; last console lines:"
  tail -20 "$console" | sed 's/^/  | /'
elif [ "$qemu_status" != 0 ] || ! grep -q '^@@@ complete' "$results" 2>/dev/null; then
  say "the VM did not run to the end; last console lines:"
  tail -20 "$console" | sed 's/^/  | /'
fi
[ -s "$results" ] || cannot_run "the VM produced no results (qemu status $qemu_status)"

say "wall time $(($(date +%s) - started_at)) s in all; results and logs in $work"
# The scorer prints the per-scenario lines, the timing figures and the closing line.
python3 "$here/scenarios.py" score "$results" || exit 1
