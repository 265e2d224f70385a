import Glibc

/// The LED class directory, /sys/class/leds unless overridden.
///
/// The root is injected (as in phosphor-led-sysfs and periph.io), so tests run the real code on a
/// temporary directory. Each entry is an LED; on a real system it is a symlink into
/// /sys/devices, which is followed.
public struct LEDClassDirectory: Sendable {
  /// Where the kernel puts the LED class.
  public static let defaultPath = "/sys/class/leds"
  /// The environment variable that overrides `defaultPath`.
  public static let environmentVariable = "MORSETORCH_LEDS_DIR"

  /// The directory holding one entry per LED.
  public let path: String

  /// The LED class directory at `path`.
  public init(path: String) {
    self.path = path
  }

  /// `MORSETORCH_LEDS_DIR` if set and non-empty, else the default.
  public init(environment: [String: String]) {
    let override = environment[LEDClassDirectory.environmentVariable] ?? ""
    self.init(path: override.isEmpty ? LEDClassDirectory.defaultPath : override)
  }

  /// Every LED, sorted by name; throws TorchError.classDirectoryMissing if the directory does
  /// not exist.
  ///
  /// Attributes that cannot be read or parsed show as `nil`; they do not fail the listing.
  public func list() throws(TorchError) -> [LEDInfo] {
    try names().map { name in
      let led = LED(name: name, path: entryPath(name))
      let read = { (attribute: String) in try? led.readAttribute(attribute) }
      return LEDInfo(
        name: name,
        maxBrightness: read(LED.maxBrightnessAttribute).flatMap(LED.parseDecimal),
        activeTrigger: read(LED.triggerAttribute).flatMap(LED.parseActiveTrigger),
        brightness: read(LED.brightnessAttribute).flatMap(LED.parseDecimal),
        isWritable: led.isAttributeWritable(LED.brightnessAttribute)
          && led.isAttributeWritable(LED.triggerAttribute))
    }
  }

  /// Validates `name` (rejects "", ".", "..", anything containing "/" or NUL — never joined into
  /// a path) and checks it exists (TorchError.ledNotFound(name, available: [names])).
  public func led(named name: String) throws(TorchError) -> LED {
    guard LEDClassDirectory.isValidName(name) else { throw .invalidName(name) }
    let path = entryPath(name)
    if (try? Syscalls.isDirectory(path)) == true { return LED(name: name, path: path) }
    throw .ledNotFound(name, available: try names())
  }

  /// Automatic choice: `preferred` if given; else a torch or flash LED, else any LED, taking the
  /// first by name among the candidates.
  ///
  /// An LED counts as a torch when its function (the last ":"-separated field of its name, as in
  /// `white:flash` or `led:torch`) is `torch` or `flash`, or its name contains either word.
  /// `note` says which LED was chosen from how many candidates when there were several; it is
  /// nil when the choice was obvious. Throws `noLEDs` when the directory is empty.
  public func chooseLED(preferred: String?) throws(TorchError) -> (led: LED, note: String?) {
    if let preferred { return (try led(named: preferred), nil) }
    let all = try names()
    let torches = all.filter(LEDClassDirectory.isTorchName)
    let candidates = torches.isEmpty ? all : torches
    guard let chosen = candidates.first else { throw .noLEDs(directory: path) }
    let led = LED(name: chosen, path: entryPath(chosen))
    guard candidates.count > 1 else { return (led, nil) }
    let kind = torches.isEmpty ? "LEDs" : "torch/flash LEDs"
    let note =
      "Using LED \"\(chosen)\", the first by name of \(candidates.count) \(kind) "
      + "(\(candidates.joined(separator: ", "))); name another to use it "
      + "(see `morsetorch list`)."
    return (led, note)
  }

  /// Whether `name` can only mean one entry of this directory: not empty, `.` or `..`, and
  /// without `/` or NUL.
  public static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
  }

  /// Whether `name` looks like a torch or camera flash: function `torch`/`flash`, or either word
  /// anywhere in the name.
  static func isTorchName(_ name: String) -> Bool {
    let lowercased = name.lowercased()
    let function = lowercased.split(separator: ":", omittingEmptySubsequences: false).last ?? ""
    return function == "torch" || function == "flash" || lowercased.contains("torch")
      || lowercased.contains("flash")
  }

  /// The names of the entries that are (or link to) directories, sorted.
  func names() throws(TorchError) -> [String] {
    let entries: [String]
    do throws(Errno) {
      entries = try Syscalls.directoryEntries(path)
    } catch {
      if error.code == ENOENT || error.code == ENOTDIR { throw .classDirectoryMissing(path: path) }
      throw TorchError(error, operation: "list", path: path)
    }
    // A dangling symlink or a stray file is not an LED.
    return entries.filter { (try? Syscalls.isDirectory(entryPath($0))) == true }.sorted()
  }

  private func entryPath(_ name: String) -> String {
    path.hasSuffix("/") ? path + name : path + "/" + name
  }
}

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
  func readAttribute(_ attribute: String) throws(TorchError) -> String {
    let path = attributePath(attribute)
    do throws(Errno) {
      var text = String(decoding: try Syscalls.readFile(path), as: UTF8.self)
      while text.last?.isNewline == true { text.removeLast() }
      return text
    } catch {
      throw TorchError(error, operation: "read", path: path)
    }
  }

  /// Replaces the content of `attribute` with `bytes`, in one write.
  func writeAttribute(_ attribute: String, _ bytes: [UInt8]) throws(TorchError) {
    let path = attributePath(attribute)
    do throws(Errno) {
      try Syscalls.replaceFile(path, with: bytes)
    } catch {
      throw TorchError(error, operation: "write", path: path)
    }
  }

  /// Whether this user may write `attribute`, as `access(2)` with `W_OK` says.
  func isAttributeWritable(_ attribute: String) -> Bool {
    Syscalls.isAccessible(attributePath(attribute), W_OK)
  }
}

/// What `morsetorch list` shows for one LED.
public struct LEDInfo: Sendable, Hashable {
  /// The LED's name.
  public let name: String
  /// `max_brightness`, or nil if unreadable.
  public let maxBrightness: Int?
  /// The active trigger, the bracketed word in `trigger`; nil if unreadable.
  public let activeTrigger: String?
  /// `brightness`, or nil if unreadable.
  public let brightness: Int?
  /// Whether this user may write both `brightness` and `trigger` (`access(2)` with `W_OK`).
  public let isWritable: Bool

  /// An LED description with the given values.
  public init(
    name: String, maxBrightness: Int?, activeTrigger: String?, brightness: Int?,
    isWritable: Bool
  ) {
    self.name = name
    self.maxBrightness = maxBrightness
    self.activeTrigger = activeTrigger
    self.brightness = brightness
    self.isWritable = isWritable
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
