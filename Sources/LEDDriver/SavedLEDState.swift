import LinuxSystem

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

    /// The attribute `name` with `content`.
    public init(name: String, content: String) {
      self.name = name
      self.content = content
    }
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
  public init(of led: LED) throws(LEDError) {
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
  public func restore(to led: LED) throws(LEDError) {
    var firstError: LEDError?
    for (attribute, bytes) in restoreSteps() {
      do throws(LEDError) {
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
  private static func readActiveTrigger(of led: LED) throws(LEDError) -> String? {
    let path = led.attributePath(LED.triggerAttribute)
    let text: String
    do throws(LEDError) {
      text = try led.readAttribute(LED.triggerAttribute)
    } catch {
      // A missing `trigger` in a directory that still has `max_brightness`: no trigger support.
      if case .vanished(_, let errno) = error, errno == .noSuchFile { return nil }
      throw error
    }
    guard let active = LED.parseActiveTrigger(text) else {
      throw .malformed(path: path, content: text)
    }
    return active
  }
}
