import LinuxSystem

/// Where the GPIO chips are: `/dev`, unless overridden.
///
/// Each `gpiochipN` entry is a chip: a character device (the kernel's), or — only where a test
/// or the benchmark asks for it (`MORSETORCH_GPIO_SIMULATOR=1`) — a directory standing in for
/// one (`SimulatedChip`).
public struct GPIOChipDirectory: Sendable {
  /// Where the kernel puts the chips.
  public static let defaultPath = "/dev"
  /// The environment variable that overrides `defaultPath`.
  public static let environmentVariable = "MORSETORCH_GPIO_DIR"

  /// The environment variable that, set to `1`, lets directories stand in for chips (tests and
  /// the benchmark only).
  public static let simulatorVariable = "MORSETORCH_GPIO_SIMULATOR"

  /// The directory holding the `gpiochipN` entries.
  public let path: String
  /// Whether a directory may stand in for a chip (`SimulatedChip`).
  public let allowsSimulatedChips: Bool

  /// The directory at `path`; with `allowsSimulatedChips`, directories in it are simulated
  /// chips.
  public init(path: String, allowsSimulatedChips: Bool = false) {
    self.path = path
    self.allowsSimulatedChips = allowsSimulatedChips
  }

  /// `MORSETORCH_GPIO_DIR` if set and non-empty, else `/dev`; simulated chips only with
  /// `MORSETORCH_GPIO_SIMULATOR=1`.
  public init(environment: [String: String]) {
    let override = environment[Self.environmentVariable] ?? ""
    self.init(
      path: override.isEmpty ? Self.defaultPath : override,
      allowsSimulatedChips: environment[Self.simulatorVariable] == "1")
  }

  /// The chips' names, in number order (`gpiochip2` before `gpiochip10`).
  public func chipNames() -> [String] {
    let entries = (try? FileSystem.directoryEntries(path)) ?? []
    return entries.filter { $0.hasPrefix("gpiochip") && Int($0.dropFirst(8)) != nil }
      .sorted { (Int($0.dropFirst(8)) ?? 0) < (Int($1.dropFirst(8)) ?? 0) }
  }

  /// Opens the chip at `path`: a directory is a simulated chip where they are allowed,
  /// anything else must be the kernel's character device.
  func openChip(at path: String) throws(GPIOError) -> any GPIOChip {
    if allowsSimulatedChips, (try? FileSystem.status(path))?.isDirectory == true {
      return SimulatedChip(path: path)
    }
    return try CharacterDeviceChip(path: path)
  }

  /// The chip named `name` here.
  public func chip(named name: String) throws(GPIOError) -> any GPIOChip {
    try openChip(at: entryPath(name))
  }

  /// The chip a state record names, which is input from whoever could write the record: only
  /// a `gpiochipN` entry of this directory (`GPIOLine.recordedChipPath`), never through a
  /// symlink, and a character device (or an allowed simulated chip). With `writer`, nil when
  /// that user may not open it for reading and writing by its permission bits.
  public func recordedChip(_ path: String, writer: UserRights? = nil) throws(GPIOError)
    -> (any GPIOChip)?
  {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    guard name.hasPrefix("gpiochip"), name.count > 8, name.dropFirst(8).allSatisfy(\.isASCII),
      Int(name.dropFirst(8)) != nil, path == entryPath(String(name))
    else { throw .notRecordable(path: path, directory: self.path) }
    let status: FileStatus
    do throws(Errno) {
      status = try FileSystem.linkStatus(path)
    } catch {
      throw GPIOError(error, operation: "open", path: path)
    }
    guard status.isCharacterDevice || (allowsSimulatedChips && status.isDirectory) else {
      throw .notRecordable(path: path, directory: self.path)
    }
    if let writer, !writer.mayReadAndWrite(status) { return nil }
    return try openChip(at: path)
  }

  /// The line a state record names (chip as `recordedChip(_:)` takes it, and offset).
  public func recordedLine(chip path: String, offset: Int) throws(GPIOError) -> GPIOLine? {
    guard let chip = try recordedChip(path) else { return nil }
    let info = try chip.info()
    guard offset < info.lines else {
      throw .lineNotFound(chip: info.name, line: String(offset), lines: info.lines, named: [])
    }
    return GPIOLine(
      chip: chip, chipName: info.name, offset: offset,
      name: try chip.lineInfo(offset: offset).name, directory: self)
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
        name: try chip.lineInfo(offset: offset).name, directory: self)
    }
    for offset in 0..<info.lines where try chip.lineInfo(offset: offset).name == address.line {
      return GPIOLine(
        chip: chip, chipName: info.name, offset: offset, name: address.line, directory: self)
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
    if text.contains("/") { return try openChip(at: text) }
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

  func entryPath(_ name: String) -> String {
    path.hasSuffix("/") ? path + name : path + "/" + name
  }
}
