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
  /// added; `$MT` is morsetorch, `$MEMBER` runs a command as the member (uid and gid 65534,
  /// no other group) and `environment` adds variables. Standard output and error together.
  static func run(
    _ script: String, groupLines: String, environment: [String: String] = [:]
  ) throws -> String {
    let directory = try TemporaryDirectory("morsetorch-mounts")
    chmod(directory.path, 0o755)
    let group = try String(contentsOfFile: "/etc/group", encoding: .utf8)
    try (group + groupLines).write(
      toFile: directory.path + "/group", atomically: false, encoding: .utf8)
    return try ProgramRun(
      "/usr/bin/unshare",
      ["--mount", "--propagation", "private", "/bin/sh", "-c",
       "mount --bind \"$GROUP\" /etc/group && " + script],
      environment: [
        "MT": try MorsetorchProcess.executablePath(), "GROUP": directory.path + "/group",
        "MEMBER": "setpriv --reuid=65534 --regid=65534 --clear-groups",
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
      ].merging(environment) { $1 }
    ).output
  }
}
