import LinuxSystem

/// The sandbox settings of the systemd unit this process runs in that can make a path
/// read-only, as its unit files set them (the unit, its template, and their drop-ins): the
/// advice for a read-only LED names only what the unit sets.
///
/// Read from the files, as `systemctl cat` shows them (ProtectSystem=strict leaves them
/// readable): a sandboxed service has no bus to ask systemd.
struct UnitSandbox: Equatable {
  /// `ProtectKernelTunables=`: yes makes all of /sys read-only.
  var protectsKernelTunables = false
  /// `ProtectSystem=`: strict makes all but /dev, /proc and /sys read-only; full and yes
  /// /usr, /boot, /efi (full /etc too).
  var protectSystem: String?
  /// `ReadOnlyPaths=`, each path as given (a leading `-` or `+` dropped).
  var readOnlyPaths: [String] = []

  /// Where systemd looks for units: `SYSTEMD_UNIT_PATH` (as systemd reads it) or its
  /// directories for the system's units.
  static func searchPath(environment: [String: String]) -> [String] {
    if let path = environment["SYSTEMD_UNIT_PATH"], !path.isEmpty {
      return path.split(separator: ":").map(String.init)
    }
    return [
      "/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
      "/usr/lib/systemd/system", "/lib/systemd/system",
    ]
  }

  /// The settings of `unit` (`morsetorch-beacon@white:flash.service`) in the files under
  /// `directories`: the unit's file (or its template's), then the drop-ins of both, by name.
  init(unit: String, directories: [String]) {
    var names = [unit]
    if let at = unit.firstIndex(of: "@"), let dot = unit.lastIndex(of: ".") {
      names.append(String(unit[...at]) + String(unit[dot...]))
    }
    let main = names.lazy.flatMap { name in directories.lazy.map { $0 + "/" + name } }
      .first { (try? FileSystem.status($0))?.isRegularFile == true }
    var dropIns: [String: String] = [:]
    // The first directory's file of a name masks the later ones'.
    for name in names {
      for directory in directories {
        let folder = directory + "/" + name + ".d"
        for file in (try? FileSystem.directoryEntries(folder)) ?? [] where file.hasSuffix(".conf") {
          if dropIns[file] == nil { dropIns[file] = folder + "/" + file }
        }
      }
    }
    let files = (main.map { [$0] } ?? []) + dropIns.keys.sorted().compactMap { dropIns[$0] }
    for file in files {
      guard let bytes = try? FileSystem.readFile(file, limit: 1 << 20) else { continue }
      take(String(decoding: bytes, as: UTF8.self))
    }
  }

  init() {}

  /// Takes the `[Service]` assignments of one file, in order.
  private mutating func take(_ text: String) {
    var section = ""
    for raw in text.split(separator: "\n") {
      let line = raw.trimmingPrefix { $0 == " " || $0 == "\t" }
      if line.hasPrefix("[") {
        section = String(line)
        continue
      }
      guard section == "[Service]", let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals].filter { $0 != " " }
      let value = String(line[line.index(after: equals)...]).filter { $0 != "\r" }
        .trimmingPrefix { $0 == " " }
      switch key {
      case "ProtectKernelTunables":
        protectsKernelTunables = ["yes", "true", "1", "on"].contains(value.lowercased())
      case "ProtectSystem":
        protectSystem = value.isEmpty || value.lowercased() == "no" ? nil : value.lowercased()
      case "ReadOnlyPaths":
        if value.isEmpty { readOnlyPaths = [] }
        readOnlyPaths += value.split(separator: " ").map {
          String($0.drop { $0 == "-" || $0 == "+" })
        }
      default: continue
      }
    }
  }

  /// The settings that make `path` read-only, as a unit file writes them.
  func settings(making path: String) -> [String] {
    func isUnder(_ directory: String) -> Bool {
      path == directory || path.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
    }
    var found: [String] = []
    if protectsKernelTunables, isUnder("/sys") { found.append("ProtectKernelTunables=yes") }
    if let system = protectSystem {
      let covered =
        system == "strict"
        ? !["/dev", "/proc", "/sys"].contains(where: isUnder)
        : ["/usr", "/boot", "/efi"].contains(where: isUnder)
          || (system == "full" && isUnder("/etc"))
      if covered { found.append("ProtectSystem=" + system) }
    }
    for readOnly in readOnlyPaths where isUnder(readOnly) {
      found.append("ReadOnlyPaths=" + readOnly)
    }
    return found
  }
}
