import LinuxSystem
import DeviceContract

/// What an LED looked like before morsetorch claimed it: enough to put it back.
///
/// Saved in the transmission's state record too, so that if the transmitter is killed with
/// SIGKILL, the next run can restore the LED from it.
public struct SavedLEDState: Sendable, Hashable {
  /// One attribute a trigger adds to the LED directory (like `delay_on`), and its content.
  public struct TriggerAttribute: Sendable, Hashable {
    /// The attribute's name, like `delay_on`, or `ports/1-1` inside a directory the trigger
    /// adds (usbport); see `SavedLEDState.isSettingName`.
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

  /// The settings of well-known triggers, in the order they are written back; a trigger's
  /// other settings follow in name order. Writing the trigger resets them to its defaults.
  /// (On a real kernel a trigger's settings are found without this table: they are the files
  /// that go when the trigger is set to `none`. The table gives the order, and keeps them on
  /// plain files, which never go.)
  public static let triggerAttributes: [String: [String]] = [
    "timer": ["delay_on", "delay_off"],
    "oneshot": ["delay_on", "delay_off", "invert"],
    "heartbeat": ["invert"],
    // Writing `pattern` or `repeat` restarts the pattern, so the last write starts it right.
    "pattern": ["pattern", "repeat"],
    // The device first: the link and traffic modes apply to it.
    "netdev": [
      "device_name", "link", "link_10", "link_100", "link_1000", "link_2500", "link_5000",
      "link_10000", "half_duplex", "full_duplex", "rx", "tx", "interval",
    ],
    "tty": ["ttyname", "rx", "tx", "cts", "dsr", "dcd", "rng"],
    "transient": ["duration", "state"],
    "activity": ["invert"],
    "backlight": ["inverted"],
    "gpio": ["gpio", "inverted", "desired_brightness"],
  ]

  /// Files of every LED directory that are no trigger's settings.
  static let coreAttributes: Set<String> = [
    LED.brightnessAttribute, LED.maxBrightnessAttribute, LED.triggerAttribute, "uevent",
  ]

  /// Whether `name` can be a trigger's setting: a file name (1 to 64 letters, digits, `_`,
  /// `-`, `.`, `:`, not starting with `.`), or one such name inside one such directory
  /// (`ports/1-1`), and no file of the LED class itself. Saving and the record check share it.
  public static func isSettingName(_ name: String) -> Bool {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !coreAttributes.contains(name) else { return false }
    return parts.allSatisfy { part in
      (1...64).contains(part.count) && part.first != "."
        && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.:".contains($0)) }
    }
  }

  /// Whether `name` can be a trigger's name as saved: 1 to 64 printable ASCII characters, no
  /// space or bracket. An LED whose active trigger breaks the rule is not claimed at all, so
  /// nothing is ever recorded that the record check would refuse after a kill.
  public static func isTriggerName(_ name: String) -> Bool {
    (1...64).contains(name.count)
      && name.allSatisfy {
        $0.isASCII && !$0.isWhitespace && !$0.isNewline
          && $0.asciiValue.map { $0 >= 0x21 && $0 < 0x7F } == true && $0 != "[" && $0 != "]"
      }
  }

  /// Whether `content` can be a setting's value as saved: one line of at most 4096 characters.
  static func isSettingContent(_ content: String) -> Bool {
    content.count <= 4096 && !content.contains(where: \.isNewline)
  }

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
    triggerAttributes = Self.readSettings(of: led, trigger: trigger)
    let brightnessText = try led.readAttribute(LED.brightnessAttribute)
    guard let current = LED.parseDecimal(brightnessText) else {
      throw .malformed(path: led.attributePath(LED.brightnessAttribute), content: brightnessText)
    }
    brightness = current
  }

  /// The state as a record keeps it: `trigger` (when the LED has one), `brightness`, and one
  /// `setting` per trigger setting, its value the setting's name, a space and its content.
  public var fields: SavedFields {
    var fields: [SavedFields.Field] = []
    if let trigger { fields.append(.init("trigger", trigger)) }
    fields.append(.init("brightness", String(brightness)))
    for attribute in triggerAttributes {
      fields.append(.init("setting", attribute.name + " " + attribute.content))
    }
    return SavedFields(fields)
  }

  /// The state `fields` describes, checked as `isPlausible` says; nil for anything else.
  public init?(fields: SavedFields) {
    guard fields.fields.allSatisfy({ ["trigger", "brightness", "setting"].contains($0.name) }),
      fields.values(of: "trigger").count <= 1,
      let brightnessText = fields.value(of: "brightness"),
      brightnessText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), brightnessText.count <= 9,
      let brightness = Int(brightnessText)
    else { return nil }
    var attributes: [TriggerAttribute] = []
    for setting in fields.values(of: "setting") {
      guard let space = setting.firstIndex(of: " ") else { return nil }
      attributes.append(
        TriggerAttribute(
          name: String(setting[..<space]), content: String(setting[setting.index(after: space)...])))
    }
    self.init(
      trigger: fields.value(of: "trigger"), brightness: brightness, triggerAttributes: attributes)
    guard isPlausible else { return nil }
  }

  /// Whether a trigger other than `none` was active.
  public var hasActiveTrigger: Bool { trigger != nil && trigger != "none" }

  /// Whether the values are ones morsetorch could have saved: a trigger name of one plain word,
  /// only the known attributes of that trigger, single-line contents, a brightness of at least
  /// 0. A record read back from disk is checked with this before anything is written.
  public var isPlausible: Bool {
    if let trigger, !Self.isTriggerName(trigger) { return false }
    return brightness >= 0 && (hasActiveTrigger || triggerAttributes.isEmpty)
      && triggerAttributes.allSatisfy { attribute in
        Self.isSettingName(attribute.name) && Self.isSettingContent(attribute.content)
      }
  }

  /// LED off (brightness 0), then the saved trigger written back, then its saved settings,
  /// then — only when the saved trigger was "none" — the saved brightness.
  ///
  /// With a trigger active, brightness belongs to the trigger, and writing it would remove that
  /// trigger again; changing the trigger forces the LED off in the kernel. Every file is
  /// opened beneath the LED's directory with no symlink followed. A setting is written only
  /// if it is one of the trigger's: a well-known setting of it (`isSetting(_:of:)`), or a
  /// file that appeared when the trigger was written. One that no longer exists, or that is
  /// no setting of the trigger, is skipped and returned; so is, with `writer` (the user who
  /// wrote the record this state came from), any file that user may not write. Attempts every
  /// other step even if one fails, and throws the first error.
  ///
  /// A trigger's settings appear owned by root, and the udev rule hands them to the LED group
  /// on the kernel's `change` event a moment later: a setting not writable yet is tried again
  /// for up to `settingsGrace`.
  @discardableResult
  public func restore(
    to led: LED, writer: UserRights? = nil, settingsGrace: Duration = .seconds(1)
  ) throws(LEDError) -> [SkippedSetting] {
    let directory = try led.openDirectory()
    var skipped: [SkippedSetting] = []
    var firstError: LEDError?
    let off = Array("0\n".utf8)
    func write(_ attribute: String, _ bytes: [UInt8], grace: Duration = .zero, isSetting: Bool) {
      do throws(LEDError) {
        if try !led.writeAttribute(attribute, bytes, beneath: directory, writer: writer, grace: grace),
          let writer
        {
          skipped.append(SkippedSetting(name: attribute, reason: .writerMayNotWrite(writer: writer.shown)))
        }
      } catch {
        if isSetting, case .vanished = error {
          skipped.append(SkippedSetting(name: attribute, reason: .gone))
        } else if firstError == nil {
          firstError = error
        }
      }
    }
    write(LED.brightnessAttribute, off, isSetting: false)
    if let trigger, hasActiveTrigger {
      let before = Set(led.fileNames(depth: 2))
      write(LED.triggerAttribute, Array("\(trigger)\n".utf8), isSetting: false)
      let now = Set(led.fileNames(depth: 2))
      // Each setting once: a planted record repeating one would otherwise make every repeat
      // wait out the grace.
      var seen = Set<String>()
      for attribute in triggerAttributes where seen.insert(attribute.name).inserted {
        let appeared = now.contains(attribute.name) && !before.contains(attribute.name)
        guard Self.isSetting(attribute.name, of: trigger) || appeared else {
          skipped.append(
            SkippedSetting(name: attribute.name, reason: .notTriggerSetting(trigger: trigger)))
          continue
        }
        write(
          attribute.name, Array("\(attribute.content)\n".utf8), grace: settingsGrace,
          isSetting: true)
      }
    } else {
      write(LED.brightnessAttribute, Array("\(brightness)\n".utf8), isSetting: false)
    }
    if let firstError { throw firstError }
    return skipped
  }

  /// Whether `name` is a well-known setting of `trigger`: one in `triggerAttributes`, or a
  /// port of the usbport trigger (`ports/1-1`).
  public static func isSetting(_ name: String, of trigger: String) -> Bool {
    if triggerAttributes[trigger]?.contains(name) == true { return true }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    return trigger == "usbport" && parts.count == 2 && parts[0] == "ports"
  }

  /// Every setting the active trigger may have: the well-known ones in their order, then the
  /// LED directory's other files (one level into its directories) by name, each with its
  /// content. Files that cannot be read, or hold more than a line, are left out.
  private static func readSettings(of led: LED, trigger: String?) -> [TriggerAttribute] {
    guard let trigger, trigger != "none" else { return [] }
    let known = triggerAttributes[trigger] ?? []
    let others = led.fileNames(depth: 2).filter { !known.contains($0) }.sorted()
    return (known + others).compactMap { name in
      // An attribute this kernel lacks or hides is simply not restored.
      guard isSettingName(name), let content = try? led.readAttribute(name), !content.isEmpty,
        isSettingContent(content)
      else { return nil }
      return TriggerAttribute(name: name, content: content)
    }
  }

  /// The state with only the trigger's own settings: its well-known ones (`isSetting`), and
  /// those no longer among `remaining` — the LED directory's files once the trigger was set to
  /// `none`, which takes the trigger's files away.
  func keepingTriggerSettings(remaining: Set<String>) -> SavedLEDState {
    SavedLEDState(
      trigger: trigger, brightness: brightness,
      triggerAttributes: triggerAttributes.filter { attribute in
        trigger.map { Self.isSetting(attribute.name, of: $0) } == true
          || !remaining.contains(attribute.name)
      })
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
    guard let active = LED.parseActiveTrigger(text), isTriggerName(active) else {
      throw .malformed(path: path, content: text)
    }
    return active
  }
}
