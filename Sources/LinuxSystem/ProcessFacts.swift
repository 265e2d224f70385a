/// What the kernel says about another process, by its pid, from `/proc/PID`: facts no file a
/// user writes can fake. Each is nil (or false) once the process is gone, or where `/proc`
/// cannot be read.
public enum ProcessFacts {
  /// Whether the process is stopped (state `T` in `/proc/PID/stat`, by Ctrl-Z or SIGSTOP): it
  /// runs no code, not even a signal handler, until it gets SIGCONT.
  public static func isStopped(_ pid: Int32) -> Bool {
    guard let bytes = try? FileSystem.readFile("/proc/\(pid)/stat"),
      let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.count
    else { return false }
    return bytes[close + 2] == UInt8(ascii: "T")
  }

  /// The systemd service the process runs in (`morsetorch-beacon@white:flash.service`): the
  /// last component of its control group's path in `/proc/PID/cgroup`, when that is a
  /// `.service`; nil outside one (a login session's scope, an app's scope under the user's
  /// own manager, no systemd).
  public static func serviceUnit(_ pid: Int32) -> String? {
    guard let bytes = try? FileSystem.readFile("/proc/\(pid)/cgroup", limit: 1 << 16) else {
      return nil
    }
    return serviceUnit(cgroup: String(decoding: bytes, as: UTF8.self))
  }

  /// The service of a `/proc/PID/cgroup` text, as systemd's own hierarchy says it: the
  /// `name=systemd` line of a legacy or hybrid set-up, else the unified one (`0::PATH`).
  static func serviceUnit(cgroup: String) -> String? {
    let paths = cgroup.split(separator: "\n").compactMap { line -> (Bool, Substring)? in
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { return nil }
      if fields[1] == "name=systemd" { return (true, fields[2]) }
      return fields[0] == "0" && fields[1].isEmpty ? (false, fields[2]) : nil
    }
    guard let path = (paths.first { $0.0 } ?? paths.first)?.1,
      let last = path.split(separator: "/").last, last.hasSuffix(".service")
    else { return nil }
    // The unit's own name, `\x2d` and all (the name `systemctl` takes); systemd puts a `_`
    // before one that could be mistaken for a file of the cgroup file system (cg_escape).
    let name = last.hasPrefix("_") ? last.dropFirst() : last
    // Only what systemd allows in a unit's name, so that it may be shown as it is.
    guard name.utf8.allSatisfy(isUnitNameByte) else { return nil }
    return String(name)
  }

  /// Whether `byte` may be in a unit's name: ASCII letters, digits and `:-_.\@`.
  private static func isUnitNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: ":-_.\\@".utf8.contains(byte)
    }
  }
}
