import LinuxSystem
import DeviceContract
import Synchronization

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
  /// What the LED looked like before it was claimed: the trigger's settings are those that
  /// went when the trigger was taken away.
  public let saved: SavedLEDState

  private let onBytes: [UInt8]
  private let offBytes: [UInt8] = Array("0\n".utf8)
  private let switchState = Mutex(Switch())
  private let skipped = Mutex<[SkippedSetting]>([])
  private let presenceWatch = Mutex<PresenceWatch?>(nil)

  /// Claims the LED: saves its state (see `SavedLEDState`), then writes trigger "none".
  /// Errors are thrown with nothing changed.
  public convenience init(led: LED, brightness: BrightnessSetting = .maximum) throws(LEDError) {
    try self.init(led: led, brightness: brightness, saved: SavedLEDState(of: led))
  }

  /// Claims the LED whose state was read as `saved` just before (and, say, recorded on disk):
  /// reads max_brightness, then takes the trigger away by writing "none".
  public init(led: LED, brightness: BrightnessSetting, saved: SavedLEDState) throws(LEDError) {
    self.led = led
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
      // What went with the trigger was the trigger's; what stayed is the LED's own.
      self.saved = saved.keepingTriggerSettings(remaining: Set(led.fileNames(depth: 2)))
    } else {
      self.saved = saved
    }
  }

  /// The brightness file, kept open from the first switch to the restore, and whether the
  /// torch is restored (and released for good).
  private struct Switch: ~Copyable {
    var brightness: ValueFile?
    var isRestored = false
    /// Between `suspend()` and `resume()`: the LED is as found, and switches are remembered.
    var isSuspended = false
    /// What was last asked for.
    var isOn = false
  }

  /// Writes the on-value or 0 to `brightness`; does nothing once the torch is restored.
  ///
  /// The file is opened at the first switch and kept open: each switch is then one write,
  /// with no path lookup (what keeps several LEDs switched as one within microseconds).
  public func set(_ isOn: Bool) throws(LEDError) {
    let path = led.attributePath(LED.brightnessAttribute)
    try switchState.withLock { state throws(LEDError) in
      state.isOn = isOn
      if state.isRestored || state.isSuspended { return }
      do throws(Errno) {
        if state.brightness == nil { state.brightness = try ValueFile(path: path) }
        try state.brightness?.rewrite(isOn ? onBytes : offBytes)
      } catch {
        throw LEDError(error, operation: "write", path: path)
      }
    }
  }

  /// Puts the LED back as `saved` describes. Idempotent: a second call does nothing.
  public func restore() throws(LEDError) {
    // The writes happen under the lock: a second caller (say the main thread's `defer` while a
    // signal watcher restores before exiting) waits until the LED is back, then does nothing.
    try switchState.withLock { state throws(LEDError) in
      if state.isRestored { return }
      state.isRestored = true
      presenceWatch.withLock { $0?.stop() }
      try? state.brightness.take()?.close()
      let left = try saved.restore(to: led)
      skipped.withLock { $0 = left }
    }
  }

  /// Puts the LED back as found (its trigger, its settings, its brightness) until `resume()`;
  /// the torch keeps its claim (its lock and record stay).
  public func suspend() throws(LEDError) {
    try switchState.withLock { state throws(LEDError) in
      if state.isRestored || state.isSuspended { return }
      state.isSuspended = true
      try? state.brightness.take()?.close()
      let left = try saved.restore(to: led)
      skipped.withLock { $0 = left }
    }
  }

  /// Takes the trigger away again and switches the LED as last asked.
  public func resume() throws(LEDError) {
    let path = led.attributePath(LED.brightnessAttribute)
    try switchState.withLock { state throws(LEDError) in
      if state.isRestored || !state.isSuspended { return }
      state.isSuspended = false
      if saved.hasActiveTrigger {
        try led.writeAttribute(LED.triggerAttribute, Array("none\n".utf8))
      }
      do throws(Errno) {
        let file = try ValueFile(path: path)
        try file.rewrite(state.isOn ? onBytes : offBytes)
        state.brightness = consume file
      } catch {
        throw LEDError(error, operation: "write", path: path)
      }
    }
  }

  /// What the restore left alone (a setting of the trigger that went away meanwhile, as a
  /// USB port unplugged during the transmission), for the caller to warn of.
  public var skippedSettings: [SkippedSetting] { skipped.withLock { $0 } }

  /// `skippedSettings`, each of this LED.
  public var settingsLeftAlone: [(device: DeviceID, setting: SkippedSetting)] {
    skippedSettings.map { (.led(led.name), $0) }
  }

  /// Watches the LED's `brightness` every 100 ms while it is claimed, so that an LED that
  /// vanishes during a long gap stops the transmission at once (`cancellation.fail`), not at
  /// the next write.
  public func reportFailures(to cancellation: Cancellation) {
    presenceWatch.withLock { watch in
      guard watch == nil else { return }
      do throws(Errno) {
        watch = try PresenceWatch(led: led) { cancellation.fail($0) }
      } catch {
        cancellation.fail(error)
      }
    }
  }
}
