import Glibc
import Synchronization

/// How bright "on" is.
public enum BrightnessSetting: Sendable, Hashable {
  /// `max_brightness`.
  case maximum
  /// A raw brightness, clamped to 1...max_brightness.
  case value(Int)
  /// A percentage of `max_brightness` (clamped to 0...100), rounded, at least 1.
  case percent(Int)

  /// The brightness to write for "on" on an LED whose `max_brightness` is `maximum` (≥ 1).
  public func onValue(maximum: Int) -> Int {
    switch self {
    case .maximum:
      return maximum
    case .value(let value):
      return min(max(value, 1), maximum)
    case .percent(let percent):
      let clamped = min(max(percent, 0), 100)
      // Round half up in integers; floating point would misround some exact halves.
      let scaled = (clamped * maximum + 50) / 100
      return min(max(scaled, 1), maximum)
    }
  }
}

/// Drives one LED through sysfs.
///
/// Shaped after openbmc/phosphor-led-sysfs: "on" is `max_brightness` (or the chosen setting),
/// the trigger is set to `none` before `brightness` is written, and the root is injected through
/// `LEDClassDirectory`. It keeps periph.io's `Halt` contract: `restore()` puts back what was
/// found. `set` and `restore` may come from different threads (a signal watcher restores while
/// the player switches); a lock orders them, and once restored the torch stays released.
public final class SysfsTorch: Torch, Sendable {
  /// The LED this torch drives.
  public let led: LED
  /// The brightness written for "on".
  public let onValue: Int
  /// The LED's `max_brightness`.
  public let maxBrightness: Int
  /// The trigger active when the torch was claimed; nil if the LED has no `trigger` attribute.
  public let savedTrigger: String?
  /// `brightness` when the torch was claimed.
  public let savedBrightness: Int
  /// The saved trigger's own attributes (name, content without newline), in restore order.
  let savedTriggerAttributes: [(name: String, content: String)]

  private let onBytes: [UInt8]
  private let offBytes: [UInt8] = Array("0\n".utf8)
  private let isRestored = Mutex(false)

  /// The attributes each trigger adds to the LED directory that a user may have tuned, in the
  /// order they are written back. Writing the trigger resets them to the trigger's defaults.
  static let triggerAttributes: [String: [String]] = [
    "timer": ["delay_on", "delay_off"],
    "oneshot": ["delay_on", "delay_off", "invert"],
    "heartbeat": ["invert"],
    // Writing `pattern` or `repeat` restarts the pattern, so the last write starts it right.
    "pattern": ["pattern", "repeat"],
  ]

  /// Claims the LED: reads max_brightness, saves the active trigger (+ that trigger's own
  /// attributes: timer → delay_on, delay_off; oneshot → delay_on, delay_off, invert; heartbeat
  /// → invert; pattern → pattern, repeat — whichever exist and are readable) and brightness,
  /// then writes trigger "none". Errors are thrown with nothing changed (if setting the trigger
  /// fails, nothing to undo).
  public init(led: LED, brightness: BrightnessSetting = .maximum) throws(TorchError) {
    self.led = led

    let maximumText = try led.readAttribute(LED.maxBrightnessAttribute)
    guard let maximum = LED.parseDecimal(maximumText), maximum >= 1 else {
      throw .malformed(
        path: led.attributePath(LED.maxBrightnessAttribute), content: maximumText)
    }
    maxBrightness = maximum
    onValue = brightness.onValue(maximum: maximum)
    onBytes = Array("\(onValue)\n".utf8)

    let trigger = try SysfsTorch.readActiveTrigger(of: led)
    savedTrigger = trigger
    savedTriggerAttributes = (trigger.flatMap { SysfsTorch.triggerAttributes[$0] } ?? [])
      .compactMap { name in
        // An attribute this kernel lacks or hides is simply not restored.
        guard let content = try? led.readAttribute(name), !content.isEmpty else { return nil }
        return (name, content)
      }

    let brightnessText = try led.readAttribute(LED.brightnessAttribute)
    guard let current = LED.parseDecimal(brightnessText) else {
      throw .malformed(path: led.attributePath(LED.brightnessAttribute), content: brightnessText)
    }
    savedBrightness = current

    // With a trigger active, brightness belongs to the trigger: take it away first. Writing
    // "none" over "none" would only add a needless permission check on `trigger`.
    if let trigger, trigger != "none" {
      try led.writeAttribute(LED.triggerAttribute, Array("none\n".utf8))
    }
  }

  /// Writes the on-value or 0 to `brightness`; does nothing once the torch is restored.
  public func set(_ isOn: Bool) throws(TorchError) {
    try isRestored.withLock { isRestored throws(TorchError) in
      if isRestored { return }
      try led.writeAttribute(LED.brightnessAttribute, isOn ? onBytes : offBytes)
    }
  }

  /// LED off (brightness 0), then the saved trigger written back, then its saved attributes,
  /// then — only when the saved trigger was "none" — the saved brightness.
  ///
  /// With a trigger active, brightness belongs to the trigger, and writing it would remove that
  /// trigger again; changing the trigger forces the LED off in the kernel. Idempotent: a second
  /// call does nothing. Attempts every step even if one fails, and throws the first error.
  public func restore() throws(TorchError) {
    // The writes happen under the lock: a second caller (say the main thread's `defer` while a
    // signal watcher restores before exiting) waits until the LED is back, then does nothing.
    try isRestored.withLock { isRestored throws(TorchError) in
      if isRestored { return }
      isRestored = true
      var firstError: TorchError?
      for (attribute, bytes) in restoreSteps() {
        do throws(TorchError) {
          try led.writeAttribute(attribute, bytes)
        } catch {
          if firstError == nil { firstError = error }
        }
      }
      if let firstError { throw firstError }
    }
  }

  /// The writes that put the LED back, in order: (attribute, bytes).
  private func restoreSteps() -> [(String, [UInt8])] {
    var steps: [(String, [UInt8])] = [(LED.brightnessAttribute, offBytes)]
    if let savedTrigger, savedTrigger != "none" {
      steps.append((LED.triggerAttribute, Array("\(savedTrigger)\n".utf8)))
      for (name, content) in savedTriggerAttributes {
        steps.append((name, Array("\(content)\n".utf8)))
      }
    } else {
      steps.append((LED.brightnessAttribute, Array("\(savedBrightness)\n".utf8)))
    }
    return steps
  }

  /// The active trigger; nil when the LED has no `trigger` attribute (kernel without
  /// CONFIG_LEDS_TRIGGERS), so there is nothing to take away or give back.
  private static func readActiveTrigger(of led: LED) throws(TorchError) -> String? {
    let path = led.attributePath(LED.triggerAttribute)
    let text: String
    do throws(TorchError) {
      text = try led.readAttribute(LED.triggerAttribute)
    } catch {
      // A missing `trigger` in a directory that still has `max_brightness`: no trigger support.
      if case .vanished(_, let errno) = error, errno.code == ENOENT { return nil }
      throw error
    }
    guard let active = LED.parseActiveTrigger(text) else {
      throw .malformed(path: path, content: text)
    }
    return active
  }
}
