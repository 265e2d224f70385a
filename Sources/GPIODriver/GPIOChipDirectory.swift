import LinuxSystem

/// Where the GPIO chips are: `/dev`, unless overridden.
///
/// Each `gpiochipN` entry is a chip: the kernel's character device, or — only where a test
/// injects a `GPIOChipStandIn` — whatever that stand-in takes for one.
public struct GPIOChipDirectory: Sendable {
  /// Where the kernel puts the chips.
  public static let defaultPath = "/dev"
  /// The environment variable that overrides `defaultPath`.
  public static let environmentVariable = "MORSETORCH_GPIO_DIR"

  /// The directory holding the `gpiochipN` entries.
  public let path: String
  /// What else may stand in for a chip besides the kernel's character devices: nil but in
  /// tests.
  public let standIn: (any GPIOChipStandIn)?

  /// The directory at `path`, whose chips are character devices (or what `standIn` takes).
  public init(path: String, standIn: (any GPIOChipStandIn)? = nil) {
    self.path = path
    self.standIn = standIn
  }

  /// `MORSETORCH_GPIO_DIR` if set and non-empty, else `/dev`.
  public init(environment: [String: String], standIn: (any GPIOChipStandIn)? = nil) {
    let override = environment[Self.environmentVariable] ?? ""
    self.init(path: override.isEmpty ? Self.defaultPath : override, standIn: standIn)
  }

  /// The chips' names, in number order (`gpiochip2` before `gpiochip10`).
  public func chipNames() -> [String] {
    let entries = (try? FileSystem.directoryEntries(path)) ?? []
    return entries.filter { $0.hasPrefix("gpiochip") && Int($0.dropFirst(8)) != nil }
      .sorted { (Int($0.dropFirst(8)) ?? 0) < (Int($1.dropFirst(8)) ?? 0) }
  }

  /// Opens the chip at `path`: what the stand-in takes for one, else the kernel's character
  /// device. Nothing there is a chip that does not exist, listed with the chips beside it.
  func openChip(at path: String) throws(GPIOError) -> any GPIOChip {
    do throws(GPIOError) {
      return try openEntry(at: path)
    } catch .chipNotFound(let missing, available: []) where missing == path {
      throw .chipNotFound(path, available: chipChoices(besides: path))
    }
  }

  /// Opens the chip at `path`, an entry that is missing thrown as it is.
  private func openEntry(at path: String) throws(GPIOError) -> any GPIOChip {
    if let standIn, let status = try? FileSystem.status(path), !status.isCharacterDevice,
      let chip = standIn.chip(at: path, status: status)
    {
      return chip
    }
    return try CharacterDeviceChip(path: path)
  }

  /// The chips in the directory of `path`, as `GPIOError.chipNotFound` lists them.
  private func chipChoices(besides path: String) -> [String] {
    let slash = path.lastIndex(of: "/")
    let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let directory = GPIOChipDirectory(path: parent, standIn: standIn)
    return directory.chipNames().compactMap { name in
      guard let chip = try? directory.openEntry(at: directory.entryPath(name)),
        let info = try? chip.info()
      else { return nil }
      return GPIOError.chipChoice(name: name, label: info.label)
    }
  }

  /// The chip named `name` here.
  public func chip(named name: String) throws(GPIOError) -> any GPIOChip {
    try openChip(at: entryPath(name))
  }

  /// The chip a state record names, which is input from whoever could write the record: only
  /// a `gpiochipN` entry of this directory (`GPIOLine.recordedChipPath`), never through a
  /// symlink, and a character device (or what the stand-in takes). With `writer`, nil when
  /// the kernel does not let that user open it for reading and writing (`access(2)` as them).
  public func recordedChip(_ path: String, writer: UserRights? = nil) throws(GPIOError)
    -> (any GPIOChip)?
  {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    guard name.hasPrefix("gpiochip"), name.count > 8, name.dropFirst(8).allSatisfy(\.isASCII),
      Int(name.dropFirst(8)) != nil, path == entryPath(String(name))
    else { throw .notRecordable(path: path, directory: self.path) }
    let status: FileStatus
    status = try Errno.mapping { () throws(Errno) in try FileSystem.linkStatus(path) } to: {
      GPIOError($0, operation: "open", path: path)
    }
    guard status.isCharacterDevice || standIn?.chip(at: path, status: status) != nil else {
      throw .notRecordable(path: path, directory: self.path)
    }
    if let writer {
      let mayUse = try Errno.mapping { () throws(Errno) in try writer.mayReadAndWrite(path) } to: {
        GPIOError($0, operation: "check the rights of \(writer.shown) on", path: path)
      }
      if !mayUse { return nil }
    }
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
