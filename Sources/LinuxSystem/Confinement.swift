import Glibc

/// What keeps this process from a file even when its permission bits would let it: its
/// capabilities, a user namespace, the mount a file is on. Read from /proc, for the advice
/// a refused write gets; each answer is nil or false when /proc does not say.
public enum Confinement {
  /// `CAP_DAC_OVERRIDE`: write any file whatever its mode.
  public static let overrideFilePermissions = 1
  /// `CAP_SETGID`.
  public static let setGroupID = 6
  /// `CAP_SETUID`.
  public static let setUserID = 7

  /// Whether every capability of `bits` is in this process's effective set (`CapEff` of
  /// /proc/self/status); false when it cannot be read.
  public static func hasCapabilities(_ bits: Int...) -> Bool {
    guard let line = statusLine("CapEff"), let mask = UInt64(line, radix: 16) else { return false }
    return bits.allSatisfy { mask & (1 << UInt64($0)) != 0 }
  }

  /// Whether this process's user IDs are mapped from other IDs outside it (a user namespace,
  /// as in a rootless container): /proc/self/uid_map is not the one full identity line.
  public static var isInUserNamespace: Bool {
    guard let bytes = try? FileSystem.readFile("/proc/self/uid_map", limit: 1 << 16) else {
      return false
    }
    let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    return fields != ["0", "0", "4294967295"]
  }

  /// The mount point of the mount that holds `path` (symlinks resolved), and whether it is
  /// read-only, as /proc/self/mountinfo lists it; nil when that cannot be told.
  public static func mount(holding path: String) -> (point: String, isReadOnly: Bool)? {
    guard let resolved = realPath(path),
      let bytes = try? FileSystem.readFile("/proc/self/mountinfo", limit: 16 << 20)
    else { return nil }
    var best: (point: String, isReadOnly: Bool)?
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      // ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL…] - TYPE SOURCE SUPER-OPTIONS
      let fields = line.split(separator: " ")
      guard fields.count >= 6, let dash = fields.firstIndex(of: "-") else { continue }
      let point = unescaped(fields[4])
      guard resolved == point || point == "/" || resolved.hasPrefix(point + "/") else { continue }
      let options = fields[5].split(separator: ",")
      let superOptions = dash + 3 < fields.count ? fields[dash + 3].split(separator: ",") : []
      // Later lines are mounted over earlier ones at the same point.
      if point.count >= (best?.point.count ?? 0) {
        best = (point, options.contains("ro") || superOptions.contains("ro"))
      }
    }
    return best
  }

  /// `realpath(3)`.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = Glibc.realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// A field of /proc/self/status, like the hexadecimal mask of "CapEff".
  private static func statusLine(_ name: String) -> Substring? {
    guard let bytes = try? FileSystem.readFile("/proc/self/status", limit: 1 << 16) else {
      return nil
    }
    let status = String(decoding: bytes, as: UTF8.self)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
    else { return nil }
    return line.dropFirst(name.count + 1).trimmingPrefix { $0 == "\t" || $0 == " " }
  }

  /// A mountinfo field with its octal escapes (`\040` for a space) decoded.
  private static func unescaped(_ field: Substring) -> String {
    var bytes: [UInt8] = []
    var rest = Array(field.utf8)[...]
    while let byte = rest.popFirst() {
      if byte == UInt8(ascii: "\\"), rest.count >= 3,
        let value = UInt8(String(decoding: rest.prefix(3), as: UTF8.self), radix: 8)
      {
        bytes.append(value)
        rest = rest.dropFirst(3)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
