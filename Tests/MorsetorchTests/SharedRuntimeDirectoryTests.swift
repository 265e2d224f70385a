import Foundation
import Glibc
import MorseTestSupport
import Testing

/// The system's shared runtime directory, `/run/morsetorch`, where no systemd-tmpfiles made it:
/// each run in a mount namespace of its own with an empty `/run` and a group `leds` (gid 65534,
/// the member's), so the machine's own `/run` is never touched.
@Suite(
  .enabled(
    if: getuid() == 0 && MorsetorchProcess.canRunUnprivileged
      && PrivateMounts.areAvailable,
    "needs root, setpriv, and unshare with mounts of its own (in a chroot, / is no mount)"))
struct SharedRuntimeDirectoryTests {
  /// Runs `script` with `sh` in a new mount namespace whose `/run` and `/tmp` are empty and
  /// whose `/etc/group` has `leds`; `$MT` is morsetorch and `$MEMBER` runs a command as the member.
  /// Standard output and error together.
  private func inFreshRun(_ script: String) throws -> String {
    let directory = try TemporaryDirectory("morsetorch-run")
    chmod(directory.path, 0o755)
    let group = try String(contentsOfFile: "/etc/group", encoding: .utf8)
    try (group + "leds:x:65534:\n").write(
      toFile: directory.path + "/group", atomically: false, encoding: .utf8)
    return try ProgramRun(
      "/usr/bin/unshare",
      [
        "--mount", "--propagation", "private", "/bin/sh", "-c",
        "mount -t tmpfs tmpfs /run && mount --bind \"$GROUP\" /etc/group "
          + "&& mount -t tmpfs tmpfs /tmp && " + script,
      ],
      environment: [
        "MT": try MorsetorchProcess.executablePath(), "GROUP": directory.path + "/group",
        "MEMBER": "setpriv --reuid=65534 --regid=65534 --clear-groups",
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
      ]
    ).output
  }

  @Test func rootMakesItAsThePackageDoesAndTheGroupSharesIt() throws {
    // Before: root made it 0755 root:root and the member went on in /tmp/morsetorch-65534.
    let said = try inFreshRun(
      "$MT status; echo root $?; stat -c 'mode %a owner %u group %g' /run/morsetorch; "
        + "$MEMBER $MT status; echo member $?; ls -d /tmp/morsetorch-65534 2>/dev/null")
    #expect(said.contains("root 3\nmode 3770 owner 0 group 65534\n"), "\(said)")
    #expect(said.contains("member 3\n"), "\(said)")
    #expect(!said.contains("/tmp/morsetorch-65534"), "\(said)")
  }

  @Test func aMemberWhoMayNotUseItIsToldSoRatherThanGoingOnAlone() throws {
    let said = try inFreshRun(
      "install -d -m 755 /run/morsetorch; $MEMBER $MT status; echo member $?")
    #expect(said.contains("member 78\n"), "\(said)")
    #expect(said.contains("is not shared with group leds"), "\(said)")
    #expect(said.contains("chmod 3770 /run/morsetorch"), "\(said)")
  }
}

/// Whether `unshare` can make a mount namespace whose mounts stay in it: not in a chroot (the
/// arm64 test run), whose / is no mount point to make private.
private enum PrivateMounts {
  static let areAvailable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = try? ProgramRun(
      "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/true"])
    return probe?.status == 0
  }()
}
