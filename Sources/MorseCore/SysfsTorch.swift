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

/// What an LED looked like before morsetorch claimed it: enough to put it back.
///
/// Saved in the transmission's state record too, so that if the transmitter is killed with
/// SIGKILL, the next run can restore the LED from it.
public struct SavedLEDState: Sendable, Hashable, Codable {
  /// One attribute a trigger adds to the LED directory (like `delay_on`), and its content.
  public struct TriggerAttribute: Sendable, Hashable, Codable {
    /// The attribute's name: one of `SavedLEDState.triggerAttributes`' values.
    public let name: String
    /// Its content, without the trailing newline.
    public let content: String
  }

  /// The active trigger; nil if the LED has no `trigger` attribute.
  public let trigger: String?
  /// `brightness` when saved.
  public let brightness: Int
  /// The active trigger's own attributes, in restore order.
  public let triggerAttributes: [TriggerAttribute]

  /// The attributes each trigger adds to the LED directory that a user may have tuned, in the
  /// order they are written back. Writing the trigger resets them to the trigger's defaults.
  public static let triggerAttributes: [String: [String]] = [
    "timer": ["delay_on", "delay_off"],
    "oneshot": ["delay_on", "delay_off", "invert"],
    "heartbeat": ["invert"],
    // Writing `pattern` or `repeat` restarts the pattern, so the last write starts it right.
    "pattern": ["pattern", "repeat"],
  ]

  /// A saved state with these values.
  public init(trigger: String?, brightness: Int, triggerAttributes: [TriggerAttribute]) {
    self.trigger = trigger
    self.brightness = brightness
    self.triggerAttributes = triggerAttributes
  }

  /// Reads the active trigger (and its own attributes: timer → delay_on, delay_off; oneshot →
  /// delay_on, delay_off, invert; heartbeat → invert; pattern → pattern, repeat — whichever
  /// exist and are readable) and the brightness of `led`.
  public init(of led: LED) throws(TorchError) {
    let trigger = try Self.readActiveTrigger(of: led)
    self.trigger = trigger
    triggerAttributes = (trigger.flatMap { Self.triggerAttributes[$0] } ?? [])
      .compactMap { name in
        // An attribute this kernel lacks or hides is simply not restored.
        guard let content = try? led.readAttribute(name), !content.isEmpty else { return nil }
        return TriggerAttribute(name: name, content: content)
      }
    let brightnessText = try led.readAttribute(LED.brightnessAttribute)
    guard let current = LED.parseDecimal(brightnessText) else {
      throw .malformed(path: led.attributePath(LED.brightnessAttribute), content: brightnessText)
    }
    brightness = current
  }

  /// Whether a trigger other than `none` was active.
  public var hasActiveTrigger: Bool { trigger != nil && trigger != "none" }

  /// Whether the values are ones morsetorch could have saved: a trigger name of one plain word,
  /// only the known attributes of that trigger, single-line contents, a brightness of at least
  /// 0. A record read back from disk is checked with this before anything is written.
  public var isPlausible: Bool {
    if let trigger {
      guard !trigger.isEmpty, trigger.count <= 64,
        trigger.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "[" && $0 != "]" })
      else { return false }
    }
    let allowed = trigger.flatMap { Self.triggerAttributes[$0] } ?? []
    return brightness >= 0
      && triggerAttributes.allSatisfy { attribute in
        allowed.contains(attribute.name) && attribute.content.count <= 4096
          && !attribute.content.contains(where: \.isNewline)
      }
  }

  /// LED off (brightness 0), then the saved trigger written back, then its saved attributes,
  /// then — only when the saved trigger was "none" — the saved brightness.
  ///
  /// With a trigger active, brightness belongs to the trigger, and writing it would remove that
  /// trigger again; changing the trigger forces the LED off in the kernel. Attempts every step
  /// even if one fails, and throws the first error.
  public func restore(to led: LED) throws(TorchError) {
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

  /// The writes that put the LED back, in order: (attribute, bytes).
  private func restoreSteps() -> [(String, [UInt8])] {
    var steps: [(String, [UInt8])] = [(LED.brightnessAttribute, Array("0\n".utf8))]
    if let trigger, hasActiveTrigger {
      steps.append((LED.triggerAttribute, Array("\(trigger)\n".utf8)))
      for attribute in triggerAttributes {
        steps.append((attribute.name, Array("\(attribute.content)\n".utf8)))
      }
    } else {
      steps.append((LED.brightnessAttribute, Array("\(brightness)\n".utf8)))
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
  /// What the LED looked like before it was claimed.
  public let saved: SavedLEDState

  private let onBytes: [UInt8]
  private let offBytes: [UInt8] = Array("0\n".utf8)
  private let isRestored = Mutex(false)

  /// Claims the LED: saves its state (see `SavedLEDState`), then writes trigger "none".
  /// Errors are thrown with nothing changed.
  public convenience init(led: LED, brightness: BrightnessSetting = .maximum) throws(TorchError) {
    try self.init(led: led, brightness: brightness, saved: SavedLEDState(of: led))
  }

  /// Claims the LED whose state was read as `saved` just before (and, say, recorded on disk):
  /// reads max_brightness, then takes the trigger away by writing "none".
  public init(led: LED, brightness: BrightnessSetting, saved: SavedLEDState) throws(TorchError) {
    self.led = led
    self.saved = saved
    let maximumText = try led.readAttribute(LED.maxBrightnessAttribute)
    guard let maximum = LED.parseDecimal(maximumText), maximum >= 1 else {
      throw .malformed(
        path: led.attributePath(LED.maxBrightnessAttribute), content: maximumText)
    }
    maxBrightness = maximum
    onValue = brightness.onValue(maximum: maximum)
    onBytes = Array("\(onValue)\n".utf8)
    // With a trigger active, brightness belongs to the trigger: take it away first. Writing
    // "none" over "none" would only add a needless permission check on `trigger`.
    if saved.hasActiveTrigger {
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

  /// Puts the LED back as `saved` describes. Idempotent: a second call does nothing.
  public func restore() throws(TorchError) {
    // The writes happen under the lock: a second caller (say the main thread's `defer` while a
    // signal watcher restores before exiting) waits until the LED is back, then does nothing.
    try isRestored.withLock { isRestored throws(TorchError) in
      if isRestored { return }
      isRestored = true
      try saved.restore(to: led)
    }
  }
}
