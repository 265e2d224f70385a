import Instants
import LinuxSystem

/// One LED under the class directory.
public struct LED: Sendable, Hashable {
  /// The directory entry's name, like `white:flash`.
  public let name: String
  /// The LED's directory (the class directory entry, usually a symlink into /sys/devices).
  public let path: String

  static let brightnessAttribute = "brightness"
  static let maxBrightnessAttribute = "max_brightness"
  static let triggerAttribute = "trigger"

  /// The path of `attribute` (like `brightness`) in this LED's directory.
  public func attributePath(_ attribute: String) -> String { path + "/" + attribute }

  /// The content of `attribute`, without the trailing newline.
  func readAttribute(_ attribute: String) throws(LEDError) -> String {
    let path = attributePath(attribute)
    var text = try Errno.mapping { () throws(Errno) in
      String(decoding: try FileSystem.readFile(path), as: UTF8.self)
    } to: {
      LEDError($0, operation: "read", path: path)
    }
    while text.last?.isNewline == true { text.removeLast() }
    return text
  }

  /// Replaces the content of `attribute` with `bytes`, in one write.
  func writeAttribute(_ attribute: String, _ bytes: [UInt8]) throws(LEDError) {
    let path = attributePath(attribute)
    try Errno.mapping { () throws(Errno) in try FileSystem.replaceFile(path, with: bytes) } to: {
      LEDError($0, operation: "write", path: path)
    }
  }

  /// Opens the LED's directory (following the class directory's symlink into /sys/devices:
  /// the name was checked to be one entry), for `writeAttribute(_:_:beneath:writer:grace:)`.
  func openDirectory() throws(LEDError) -> FileDescriptor {
    // Not Errno.mapping: its result would have to be ~Copyable, which Swift 6.0.3 (the arm64
    // build's) cannot compile in a generic closure.
    do throws(Errno) {
      return try FileDescriptor.open(path, [.readOnly, .directory])
    } catch {
      throw LEDError(error, operation: "open", path: path)
    }
  }

  /// Writes `bytes` to `attribute`, opened beneath the LED's `directory` with no symlink
  /// followed at any step (a `device/…` or planted link is refused), and only if it is a
  /// plain file; with `writer`, opened with that user's credentials, so that the kernel
  /// decides whether they may write it. Returns false, writing nothing, when `writer` may
  /// not; throws `vanished` when it does not exist.
  ///
  /// A trigger's settings appear owned by root, and the udev rule hands them to the LED group
  /// a moment later: a permission this process or `writer` lacks is looked at again every
  /// 10 ms for up to `grace`.
  func writeAttribute(
    _ attribute: String, _ bytes: [UInt8], beneath directory: borrowing FileDescriptor,
    writer: UserRights?, grace: Duration
  ) throws(LEDError) -> Bool {
    let path = attributePath(attribute)
    let deadline = MonotonicTime.now() + grace
    let pause = OneShotEvent()
    while true {
      do throws(Errno) {
        // Emptied only once it is known to be written (sysfs takes a write as the whole value;
        // a plain file, as tests use, needs O_TRUNC's effect).
        let file = try Self.openForWriting(attribute, beneath: directory, as: writer)
        let status = try file.status()
        guard status.isRegularFile else { throw Errno.invalidArgument }
        let written = Result { () throws(Errno) in
          if !file.isOnSysfs { try file.truncate() }
          try file.writeWhole(bytes)
        }
        try file.close()
        try written.get()
        return true
      } catch {
        let mayLater = error == .permissionDenied || error == .notPermitted
        if !mayLater || MonotonicTime.now() >= deadline {
          // What the kernel refuses the record's writer is theirs to lack, not an error.
          if mayLater && writer != nil { return false }
          throw LEDError(error, operation: "write", path: path)
        }
      }
      _ = pause.wait(untilMonotonic: MonotonicTime.now() + .milliseconds(10))
    }
  }

  /// `attribute` beneath `directory`, opened for writing: with `writer`'s credentials when
  /// given.
  private static func openForWriting(
    _ attribute: String, beneath directory: borrowing FileDescriptor, as writer: UserRights?
  ) throws(Errno) -> FileDescriptor {
    let options: OpenOptions = [.writeOnly, .nonBlocking]
    guard let writer else { return try directory.open(beneath: attribute, options) }
    return try writer.open(beneath: attribute, in: directory, options)
  }

  /// The names of the regular files in the LED's directory, and with `depth` 2 in its
  /// subdirectories too (`ports/1-1`); symlinks (`device`, `subsystem`) and `power/` are not
  /// followed.
  func fileNames(depth: Int = 1) -> [String] {
    fileNames(in: "", depth: depth)
  }

  private func fileNames(in directory: String, depth: Int) -> [String] {
    let base = directory.isEmpty ? path : path + "/" + directory
    let prefix = directory.isEmpty ? "" : directory + "/"
    let entries = (try? FileSystem.directoryEntries(base)) ?? []
    return entries.flatMap { entry -> [String] in
      guard let status = try? FileSystem.linkStatus(base + "/" + entry) else { return [] }
      if status.isRegularFile { return [prefix + entry] }
      guard status.isDirectory, depth > 1, entry != "power" else { return [] }
      return fileNames(in: prefix + entry, depth: depth - 1)
    }
  }

  /// The settings of `trigger` as they can be told without switching it: the well-known ones
  /// that exist; for another trigger, every file that is not read-only and not the LED
  /// class's own.
  func settingNames(of trigger: String?) -> [String] {
    guard let trigger, trigger != "none" else { return [] }
    let files = fileNames(depth: 2)
    if let known = SavedLEDState.triggerAttributes[trigger] {
      return known.filter(files.contains)
    }
    return files.filter { name in
      SavedLEDState.isSettingName(name)
        && (try? FileSystem.status(attributePath(name)))?.isWritableBySomeone == true
    }.sorted()
  }

  /// Whether this user may write `attribute`, as `access(2)` with `W_OK` says.
  func isAttributeWritable(_ attribute: String) -> Bool {
    FileSystem.isWritable(attributePath(attribute))
  }
}

extension LED {
  /// A decimal attribute like `brightness` ("255"); nil for anything else.
  static func parseDecimal(_ text: String) -> Int? {
    let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
    let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
    return Int(text[start..<end])
  }

  /// The active trigger in a `trigger` attribute: the word in [brackets] ("none [timer]
  /// heartbeat" → "timer"); a single word without brackets, as in a plain file, is taken as
  /// active. Nil for anything else.
  static func parseActiveTrigger(_ text: String) -> String? {
    let words = text.split(whereSeparator: { $0.isWhitespace })
    for word in words where word.count > 2 && word.hasPrefix("[") && word.hasSuffix("]") {
      return String(word.dropFirst().dropLast())
    }
    if words.count == 1, let only = words.first, !only.contains("[") { return String(only) }
    return nil
  }
}
