import Foundation
import Glibc
import MorseTestSupport
import Testing

/// Runs shell scripts in a mount namespace of their own, so that a test may mount over `/run`,
/// `/etc/group` or an LED directory without touching the machine's: what the package and the
/// real set-ups make, where they would be.
enum PrivateMounts {
  /// Whether `unshare` can make a mount namespace whose mounts stay in it: not in a chroot (the
  /// arm64 test run), whose / is no mount point to make private.
  static let areAvailable: Bool = {
    guard getuid() == 0, MorsetorchProcess.canRunUnprivileged,
      FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    else { return false }
    let probe = try? ProgramRun(
      "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/true"])
    return probe?.status == 0
  }()

  /// Why a suite that needs them is skipped.
  static let requirement: Comment =
    "needs root, setpriv, and unshare with mounts of its own (in a chroot, / is no mount)"

  /// Runs `script` with `sh` in a new mount namespace where `/etc/group` has `groupLines`
  /// instead of any line of the machine's for the same groups (a machine with the package
  /// installed has a `leds` of its own); `$MT` is morsetorch, `$MEMBER` runs a command as the
  /// member (uid and gid 65534, no other group) and `environment` adds variables. Standard
  /// output and error together.
  ///
  /// The script may mount over `/run` and `/tmp`: morsetorch is bound at `/mnt/morsetorch`
  /// and the directory `keeping` (if any) at `/mnt/kept` (`$KEPT`), on a tmpfs of the
  /// namespace's own, so neither is hidden by them, nor out of the member's reach where the
  /// checkout is (a home directory of mode 0700).
  static func run(
    _ script: String, groupLines: String, environment: [String: String] = [:],
    keeping: String? = nil
  ) throws -> String {
    let directory = try TemporaryDirectory("morsetorch-mounts")
    chmod(directory.path, 0o755)
    let replaced = Set(groupLines.split(separator: "\n").map { $0.prefix { $0 != ":" } })
    let group = try String(contentsOfFile: "/etc/group", encoding: .utf8)
      .split(separator: "\n").filter { !replaced.contains($0.prefix { $0 != ":" }) }
      .map { $0 + "\n" }.joined()
    try (group + groupLines).write(
      toFile: directory.path + "/group", atomically: false, encoding: .utf8)
    let binds =
      "mount --bind \"$GROUP\" /etc/group && mount -t tmpfs -o mode=755 tmpfs /mnt && "
      + "touch /mnt/morsetorch && mount --bind \"$BUILT\" /mnt/morsetorch && "
      + (keeping == nil ? "" : "mkdir /mnt/kept && mount --bind \"$KEEPING\" /mnt/kept && ")
    return try ProgramRun(
      "/usr/bin/unshare",
      ["--mount", "--propagation", "private", "/bin/sh", "-c", binds + script],
      environment: [
        "BUILT": try MorsetorchProcess.executablePath(), "MT": "/mnt/morsetorch",
        "GROUP": directory.path + "/group", "KEEPING": keeping ?? "", "KEPT": "/mnt/kept",
        "MEMBER": "setpriv --reuid=65534 --regid=65534 --clear-groups",
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
      ].merging(environment) { $1 }
    ).output
  }
}
