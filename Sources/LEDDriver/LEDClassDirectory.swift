import LinuxSystem

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

  /// Every LED, sorted by name; throws LEDError.classDirectoryMissing if the directory does
  /// not exist.
  ///
  /// Attributes that cannot be read or parsed show as `nil`; they do not fail the listing.
  /// `unwritable` names what `send` would need to write (to switch the LED and to put the
  /// trigger's settings back) and this user may not.
  public func list() throws(LEDError) -> [LEDInfo] {
    try names().map { name in
      let led = LED(name: name, path: entryPath(name))
      let read = { (attribute: String) in try? led.readAttribute(attribute) }
      let trigger = read(LED.triggerAttribute).flatMap(LED.parseActiveTrigger)
      return LEDInfo(
        name: name,
        maxBrightness: read(LED.maxBrightnessAttribute).flatMap(LED.parseDecimal),
        activeTrigger: trigger,
        brightness: read(LED.brightnessAttribute).flatMap(LED.parseDecimal),
        unwritable: led.unwritableAttributes(activeTrigger: trigger))
    }
  }

  /// Validates `name` (rejects "", ".", "..", anything containing "/" or NUL — never joined into
  /// a path) and checks it exists (LEDError.ledNotFound(name, available: [names])).
  public func led(named name: String) throws(LEDError) -> LED {
    guard LEDClassDirectory.isValidName(name) else { throw .invalidName(name) }
    let path = entryPath(name)
    if isLED(path) { return LED(name: name, path: path) }
    throw .ledNotFound(name, available: try names())
  }

  /// The LEDs `requests` name, sorted by name without repeats: each request is a name, or a
  /// shell-style pattern (`*::capslock`, `*:green:*`, see `NamePattern`) standing for every
  /// LED whose name matches. A name that does not exist, or a pattern that matches nothing,
  /// is an error listing the LEDs that exist. An LED whose very name has a pattern character
  /// in it is found by that name.
  public func leds(matching requests: [String]) throws(LEDError) -> [LED] {
    var chosen = Set<String>()
    var all: [String]?
    for request in requests {
      let isLiteral = LEDClassDirectory.isValidName(request) && (try? led(named: request)) != nil
      guard NamePattern.isPattern(request), !isLiteral else {
        chosen.insert(try led(named: request).name)
        continue
      }
      if all == nil { all = try names() }
      let names = all ?? []
      let pattern = NamePattern(request)
      let matching = names.filter(pattern.matches)
      guard !matching.isEmpty else { throw .noMatch(pattern: request, available: names) }
      chosen.formUnion(matching)
    }
    return chosen.sorted().map { LED(name: $0, path: entryPath($0)) }
  }

  /// Automatic choice, when no LED was named (named ones: `leds(matching:)`): a torch or flash
  /// LED, else any LED, taking the first by name among the candidates.
  ///
  /// An LED counts as a torch when its function (the last ":"-separated field of its name, as in
  /// `white:flash` or `led:torch`) is `torch` or `flash`, or its name contains either word.
  /// Throws `noLEDs` when the directory is empty.
  public func chooseLED() throws(LEDError) -> LEDChoice {
    let all = try names()
    let torches = all.filter(LEDClassDirectory.isTorchName)
    let candidates = torches.isEmpty ? all : torches
    guard let chosen = candidates.first else { throw .noLEDs(directory: path) }
    return LEDChoice(
      led: LED(name: chosen, path: entryPath(chosen)), candidates: candidates,
      areTorches: !torches.isEmpty, total: all.count)
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
  func names() throws(LEDError) -> [String] {
    let entries: [String]
    do throws(Errno) {
      entries = try FileSystem.directoryEntries(path)
    } catch {
      if error == .noSuchFile || error == .notDirectory { throw .classDirectoryMissing(path: path) }
      throw LEDError(error, operation: "list", path: path)
    }
    return entries.filter { isLED(entryPath($0)) }.sorted()
  }

  /// Whether the entry at `path` is an LED: a directory (or a link to one) with an entry
  /// `brightness`. A dangling symlink, a stray file or a directory of something else is not.
  private func isLED(_ path: String) -> Bool {
    (try? FileSystem.status(path))?.isDirectory == true
      && (try? FileSystem.linkStatus(path + "/" + LED.brightnessAttribute)) != nil
  }

  private func entryPath(_ name: String) -> String {
    path.hasSuffix("/") ? path + name : path + "/" + name
  }
}

extension LED {
  /// The files `send` writes (`brightness`, `trigger`, and the settings of `activeTrigger`,
  /// to put them back) that this user may not write, as `access(2)` with `W_OK` says.
  func unwritableAttributes(activeTrigger trigger: String?) -> [String] {
    // No `trigger` file (no trigger support): there is nothing to take away or give back.
    let switches =
      trigger == nil
      ? [LED.brightnessAttribute] : [LED.brightnessAttribute, LED.triggerAttribute]
    let needed = switches + settingNames(of: trigger)
    return needed.filter { !isAttributeWritable($0) }
  }
}
