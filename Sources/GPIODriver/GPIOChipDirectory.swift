import LinuxSystem

/// Where the GPIO chips are: `/dev`, unless overridden.
///
/// Each `gpiochipN` entry is a chip: a character device (the kernel's), or a directory (a
/// `SimulatedChip`, for tests and the benchmark).
public struct GPIOChipDirectory: Sendable {
  /// Where the kernel puts the chips.
  public static let defaultPath = "/dev"
  /// The environment variable that overrides `defaultPath`.
  public static let environmentVariable = "MORSETORCH_GPIO_DIR"

  /// The directory holding the `gpiochipN` entries.
  public let path: String

  /// The directory at `path`.
  public init(path: String) {
    self.path = path
  }

  /// `MORSETORCH_GPIO_DIR` if set and non-empty, else `/dev`.
  public init(environment: [String: String]) {
    let override = environment[Self.environmentVariable] ?? ""
    self.init(path: override.isEmpty ? Self.defaultPath : override)
  }

  /// The chips' names, in number order (`gpiochip2` before `gpiochip10`).
  public func chipNames() -> [String] {
    let entries = (try? FileSystem.directoryEntries(path)) ?? []
    return entries.filter { $0.hasPrefix("gpiochip") && Int($0.dropFirst(8)) != nil }
      .sorted { (Int($0.dropFirst(8)) ?? 0) < (Int($1.dropFirst(8)) ?? 0) }
  }

  /// Opens the chip at `path`: a directory is a simulated chip, anything else the kernel's.
  public static func openChip(at path: String) throws(GPIOError) -> any GPIOChip {
    if (try? FileSystem.status(path))?.isDirectory == true { return SimulatedChip(path: path) }
    return try CharacterDeviceChip(path: path)
  }

  /// The chip named `name` here.
  public func chip(named name: String) throws(GPIOError) -> any GPIOChip {
    try Self.openChip(at: entryPath(name))
  }

  /// Finds the line `address` names: the chip by path, name or label, the line by offset or
  /// name. Errors list what exists.
  public func line(_ address: GPIOLineAddress) throws(GPIOError) -> GPIOLine {
    let chip = try findChip(address.chip)
    let info = try chip.info()
    if let offset = address.offset {
      guard offset < info.lines else {
        throw .lineNotFound(
          chip: info.name, line: address.line, lines: info.lines, named: try names(of: chip))
      }
      return GPIOLine(
        chip: chip, chipName: info.name, offset: offset,
        name: try chip.lineInfo(offset: offset).name)
    }
    for offset in 0..<info.lines where try chip.lineInfo(offset: offset).name == address.line {
      return GPIOLine(chip: chip, chipName: info.name, offset: offset, name: address.line)
    }
    throw .lineNotFound(
      chip: info.name, line: address.line, lines: info.lines, named: try names(of: chip))
  }

  /// Every chip with its lines, for `list --gpio`; chips that cannot be read are left out
  /// and named in `unreadable` with their error.
  public func list() -> (
    chips: [(GPIOChipFile.Info, [GPIOChipFile.LineInfo])], unreadable: [GPIOError]
  ) {
    var chips: [(GPIOChipFile.Info, [GPIOChipFile.LineInfo])] = []
    var unreadable: [GPIOError] = []
    for name in chipNames() {
      do throws(GPIOError) {
        let chip = try chip(named: name)
        let info = try chip.info()
        let lines = try (0..<info.lines).map { offset throws(GPIOError) in
          try chip.lineInfo(offset: offset)
        }
        chips.append((info, lines))
      } catch {
        unreadable.append(error)
      }
    }
    return (chips, unreadable)
  }

  private func findChip(_ text: String) throws(GPIOError) -> any GPIOChip {
    if text.contains("/") { return try Self.openChip(at: text) }
    let names = chipNames()
    if names.contains(text) { return try chip(named: text) }
    if let number = Int(text), names.contains("gpiochip\(number)") {
      return try chip(named: "gpiochip\(number)")
    }
    var available: [String] = []
    for name in names {
      guard let chip = try? chip(named: name), let info = try? chip.info() else { continue }
      if info.label == text { return chip }
      available.append(info.label.isEmpty ? name : "\(name) (\(info.label))")
    }
    throw .chipNotFound(text, available: available)
  }

  private func names(of chip: any GPIOChip) throws(GPIOError) -> [String] {
    var names: [String] = []
    for offset in 0..<(try chip.info().lines) {
      let name = try chip.lineInfo(offset: offset).name
      if !name.isEmpty { names.append(name) }
    }
    return names
  }

  private func entryPath(_ name: String) -> String {
    path.hasSuffix("/") ? path + name : path + "/" + name
  }
}
