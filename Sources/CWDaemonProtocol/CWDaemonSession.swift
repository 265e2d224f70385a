/// cwdaemon's behaviour, free of I/O: requests in, what to do out. The daemon feeds it each
/// datagram with its sender (`handle`) and tells it when the keyer has run out of texts
/// (`keyerIsIdle`); it answers with effects to carry out in order.
///
/// The reply rules are cwdaemon 0.13's: a caret (`text^`) or ESC h prepares one reply (a later
/// one replaces it, destination included), sent to whoever sent the request that prepared it
/// once a text keyed after it has ended and nothing else is queued; ESC 4 answers a prepared
/// reply with `break` instead (unless word mode is on, when ESC 4 is ignored); ESC 0 drops it
/// silently.
public struct CWDaemonSession<Address: Sendable & Equatable>: Sendable {
  /// What the daemon is to do.
  public enum Effect: Sendable, Equatable {
    /// Queue these steps after whatever is being keyed.
    case key(CWDaemonKeying, text: [UInt8])
    /// Stop keying now and drop the queue (key up).
    case abort
    /// Key down for this long, after dropping the queue.
    case tune(Duration)
    /// Send these bytes to this address.
    case reply([UInt8], to: Address)
    /// PTT on or off by request (ESC a).
    case ptt(Bool)
    /// Key on this device from now on (ESC 8, and ESC 0 back to the command line's).
    case device(String)
    /// Exit with status 0.
    case exit
    /// A line for the log: a request dropped or ignored, or a character left out.
    case warning(String)
    /// A line for a detailed log (`-y i`): what a request changed.
    case note(String)
  }

  /// The settings now.
  public private(set) var settings: CWDaemonSettings
  /// The command line's settings, which ESC 0 goes back to.
  public let defaults: CWDaemonSettings
  /// The device the command line named.
  public let defaultDevice: String
  /// Whether ESC 6 made ESC 4 a no-op.
  public private(set) var isWordMode = false
  private var reply: (bytes: [UInt8], to: Address, isArmed: Bool)?

  /// A session starting from the command line's settings and device.
  public init(defaults: CWDaemonSettings, device: String) {
    self.settings = defaults
    self.defaults = defaults
    self.defaultDevice = device
  }

  /// What `datagram` from `sender` asks to be done.
  public mutating func handle(_ datagram: some Collection<UInt8>, from sender: Address) -> [Effect]
  {
    switch CWDaemonRequest(datagram) {
    case .empty: return []
    case .text(let text):
      if text.hasCaret { reply = (text.reply, sender, false) }
      let keying = text.keying(speed: settings.speed, weighting: settings.weighting)
      settings.speed = keying.speed
      var effects: [Effect] = []
      if !keying.dropped.isEmpty {
        effects.append(.warning("no Morse for \"\(CWDaemonText.shown(keying.dropped))\": left out"))
      }
      // Nothing to key ("^" alone) prepares its reply for the next text, as cwdaemon does.
      guard !keying.isEmpty else { return effects }
      if reply != nil { reply?.isArmed = true }
      return effects + [.key(keying, text: text.bytes)]
    case .reset:
      settings = defaults
      isWordMode = false
      reply = nil
      return [
        .abort, .ptt(false), .device(defaultDevice), .note("reset to the command line's settings"),
      ]
    case .speed(let speed):
      settings.speed = speed
      return [.note("speed \(speed) WPM")]
    case .tone(let tone):
      settings.tone = tone
      return [.note(tone == 0 ? "sidetone off" : "sidetone \(tone) Hz")]
    case .volume(let volume):
      settings.volume = volume
      return [.note("volume \(volume) %")]
    case .weighting(let weighting):
      settings.weighting = weighting
      return [.note("weighting \(weighting)")]
    case .pttDelay(let delay):
      settings.pttDelay = delay
      return [.note("PTT delay \(delay) ms")]
    case .soundSystem(let letter):
      settings.soundSystem = letter
      return [.note("sound system \(letter)")]
    case .abort:
      guard !isWordMode else { return [.note("ESC 4 ignored in word mode")] }
      var effects: [Effect] = [.abort, .note("aborted: key up")]
      if let pending = reply {
        effects.append(.reply(Array("break\r\n".utf8), to: pending.to))
        reply = nil
      }
      return effects
    case .exit: return [.abort, .exit]
    case .wordMode:
      isWordMode = true
      return [.abort, .note("word mode: ESC 4 is ignored until ESC 0")]
    case .device(let name): return [.device(name)]
    case .ptt(let isOn): return [.ptt(isOn)]
    case .tune(let seconds):
      guard seconds > 0 else { return [] }
      return [.abort, .tune(.seconds(seconds)), .note("tuning for \(seconds) s")]
    case .reply(let text):
      reply = (Array("h".utf8) + text + [0x0D, 0x0A], sender, false)
      return []
    case .ignored(let code):
      return [.note("ESC \(CWDaemonText.shown([code])): not for a serial port; ignored")]
    case .invalid(let reason): return [.warning(reason + "; ignored")]
    }
  }

  /// The keyer has keyed everything queued: the reply, if a text keyed since it was prepared.
  /// When the last text was cut short (`morsetorch stop`, a rerun of `send`, a device that
  /// went away), the reply is `break`, as for ESC 4.
  public mutating func keyerIsIdle(lastTextWasCut: Bool = false) -> [Effect] {
    guard let pending = reply, pending.isArmed else { return [] }
    reply = nil
    return [.reply(lastTextWasCut ? Array("break\r\n".utf8) : pending.bytes, to: pending.to)]
  }
}
