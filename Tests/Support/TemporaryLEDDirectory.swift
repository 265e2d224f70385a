import Foundation

/// A temporary directory laid out like sysfs, for tests that must never touch /sys.
///
/// Each LED is a real directory `devices/platform/leds/<name>/` holding plain-file attributes
/// (`brightness`, `max_brightness`, `trigger`, and any extras such as `delay_on`), and
/// `leds/<name>` is a symlink to it — the shape of /sys/class/leds. Pass `ledsPath` to
/// `LEDClassDirectory(path:)` or put it in `MORSETORCH_LEDS_DIR`.
///
/// Plain files differ from sysfs in two ways tests should know: they keep whatever is written
/// (no clamping, no trigger side effects), and root may write them whatever their mode.
///
/// Depends on Foundation only, so every test target can carry a copy. The directory is removed
/// by `remove()` or when the value is deinitialized.
public final class TemporaryLEDDirectory: Sendable {
  /// The temporary root holding `devices/` and `leds/`.
  public let root: String
  /// The imitation of /sys/class/leds: one symlink per LED.
  public let ledsPath: String
  /// Where the LED directories really are, like /sys/devices/platform/leds.
  public let devicesPath: String

  /// An empty class directory (`leds/` exists and has no LED).
  public init() throws {
    let base = FileManager.default.temporaryDirectory.path
    root = base + "/morsetorch-leds-" + UUID().uuidString
    ledsPath = root + "/leds"
    devicesPath = root + "/devices/platform/leds"
    try FileManager.default.createDirectory(
      atPath: ledsPath, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: devicesPath, withIntermediateDirectories: true)
  }

  deinit {
    remove()
  }

  /// Adds an LED: its directory with `max_brightness`, `brightness`, `trigger` (omitted when
  /// nil) and `attributes` (name → exact content), plus the `leds/<name>` symlink.
  /// Numbers are written as the kernel shows them, with a trailing newline.
  /// Returns the LED's path through the symlink.
  @discardableResult
  public func addLED(
    _ name: String, maxBrightness: Int = 255, brightness: Int = 0,
    trigger: String? = "[none] timer heartbeat", attributes: [String: String] = [:]
  ) throws -> String {
    let device = devicePath(of: name)
    try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
    var contents = attributes
    contents["max_brightness"] = "\(maxBrightness)\n"
    contents["brightness"] = "\(brightness)\n"
    if let trigger { contents["trigger"] = trigger + "\n" }
    for (attribute, content) in contents {
      try Data(content.utf8).write(to: URL(fileURLWithPath: device + "/" + attribute))
    }
    try FileManager.default.createSymbolicLink(
      atPath: ledPath(of: name), withDestinationPath: device)
    return ledPath(of: name)
  }

  /// The LED's path in the class directory (the symlink), like /sys/class/leds/NAME.
  public func ledPath(of name: String) -> String { ledsPath + "/" + name }

  /// The LED's real directory, like /sys/devices/platform/leds/NAME.
  public func devicePath(of name: String) -> String { devicesPath + "/" + name }

  /// The exact content of an attribute, newline included: "255\n".
  public func read(_ attribute: String, of name: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: devicePath(of: name) + "/" + attribute))
    return String(decoding: data, as: UTF8.self)
  }

  /// Replaces (or creates) an attribute with exactly `content`; add the newline yourself.
  public func write(_ content: String, to attribute: String, of name: String) throws {
    try Data(content.utf8).write(
      to: URL(fileURLWithPath: devicePath(of: name) + "/" + attribute))
  }

  /// Sets an attribute's mode bits (like 0o444); root still writes such a file.
  public func setPermissions(_ mode: Int, of attribute: String, of name: String) throws {
    try FileManager.default.setAttributes(
      [.posixPermissions: mode], ofItemAtPath: devicePath(of: name) + "/" + attribute)
  }

  /// Deletes one attribute file, as the kernel does with `delay_on` when the timer trigger goes.
  public func removeAttribute(_ attribute: String, of name: String) throws {
    try FileManager.default.removeItem(atPath: devicePath(of: name) + "/" + attribute)
  }

  /// Makes the LED vanish, as when its device is unplugged: the symlink and the directory go.
  public func removeLED(_ name: String) throws {
    try FileManager.default.removeItem(atPath: ledPath(of: name))
    try FileManager.default.removeItem(atPath: devicePath(of: name))
  }

  /// Deletes the whole temporary tree; safe to call more than once.
  public func remove() {
    try? FileManager.default.removeItem(atPath: root)
  }
}
