import CWDaemonProtocol
import LinuxSystem
import SerialDriver
import SoundDriver

/// `morsetorch cwdaemon`: cwdaemon's network protocol, keying morsetorch's devices.
///
/// The main thread reads datagrams and hands each to the session (`CWDaemonSession`, the
/// protocol's rules); what it says to do is done here: texts go to the keyer's thread, replies
/// go out from the listening socket, an abort stops the keyer at once. A signal (SIGTERM,
/// Ctrl-C) or ESC 5 ends it with every device back as found.
struct CWDaemonCommand {
  /// Reads cwdaemon's options from `words` and runs the daemon, or shows the help or version.
  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    let plan: CWDaemonPlan
    do {
      guard case .run(let checked) = try Invocation<CWDaemonPlan>(words, command: "cwdaemon")
      else { return Morsetorch.printing(HelpText.cwdaemon.text) }
      plan = checked
    } catch let error as UsageError {
      Console.error(error.description)
      return ExitStatus.cwdaemonFailure
    }
    if plan.showsVersion {
      return Morsetorch.printing("morsetorch \(version) (cwdaemon 0.13 protocol)")
    }
    let ready = DetachedSend.adoptIfDetached(environment: environment)
    if !plan.staysInForeground && ready == nil {
      return try detach(words, environment: environment)
    }
    return try CWDaemonCommand(plan: plan, environment: environment).serve(ready: ready)
  }

  /// Without `-n`: the same command with `-n`, in the background, once it listens.
  private static func detach(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    switch try DetachedSend.start(arguments: ["cwdaemon", "-n"] + words, environment: environment) {
    case .sending(_, let output, let errors):
      Console.write(output)
      Console.writeError(errors)
      return ExitStatus.success
    case .ended(let status, let output, let errors):
      Console.write(output)
      Console.writeError(errors)
      return status
    }
  }

  private let plan: CWDaemonPlan
  private let environment: ProcessEnvironment
  private let log: CWDaemonLog

  private init(plan: CWDaemonPlan, environment: ProcessEnvironment) {
    self.plan = plan
    self.environment = environment
    self.log = CWDaemonLog(verbosity: plan.verbosity)
  }

  /// Listens and keys until ESC 5 or a signal.
  private func serve(ready: consuming FileDescriptor?) throws -> Int32 {
    let socket: CWDaemonSocket
    do {
      socket = CWDaemonSocket(try DatagramSocket(binding: plan.address), log: log)
    } catch {
      Console.error(
        "cannot listen on UDP \(plan.address): \(error)"
          + (error == .addressInUse
            ? " (another cwdaemon, or morsetorch cwdaemon, has the port; -p PORT picks another)"
            : ""))
      return ExitStatus.cwdaemonFailure
    }
    let stop = Cancellation()
    // Ctrl-Z: the key goes up (the devices back as found) before the process stops, and down
    // again where it was when it goes on. A device that cannot be put back fails the request.
    let jobControl = JobControl(cancellation: Cancellation())
    let watcher = try SignalWatcher(
      signals: Signals.terminating, passing: JobControl.signals, cancelling: stop
    ) { signal in _ = jobControl.handle(signal) }
    let session = Monitor(
      CWDaemonSession<InternetAddress>(defaults: plan.settings, device: plan.device))
    let keyer = CWDaemonKeyer(
      deviceWords: [], pttLine: plan.pttLine, jobControl: jobControl, environment: environment,
      log: log,
      whenIdle: { wasCut in
        let effects = session.withLock { $0.keyerIsIdle(lastTextWasCut: wasCut) }
        for case .reply(let bytes, let address) in effects { socket.send(bytes, to: address) }
      })
    keyer.use(deviceWords: checkedDevice(plan.device, keyer: keyer))
    try keyer.start()
    defer { keyer.close() }
    if let ready = ready.take() { DetachedSend.reportReady(on: ready, environment: environment) }
    if ["s", "a", "p", "o"].contains(plan.settings.soundSystem), sidetone(plan.settings) == nil,
      plan.settings.tone > 0
    {
      log.warning(
        "no sidetone: \(SoundPlayer.program) is not on PATH (sudo apt install alsa-utils)")
    }
    log.info("listening on UDP \(plan.address); keying \(keyer.keyed)")
    var exitStatus: Int32?
    while exitStatus == nil,
      let (bytes, sender) = try socket.receive(
        limit: CWDaemonRequest.maximumSize, unlessFired: stop.event)
    {
      let (effects, settings) = session.withLock {
        ($0.handle(bytes, from: sender), $0.settings)
      }
      let extras = CWDaemonKeyer.Job.Extras(
        pttDelay: .milliseconds(settings.pttDelay), sidetone: sidetone(settings))
      for effect in effects where carry(effect, from: sender, extras, keyer, socket) {
        exitStatus = ExitStatus.success
      }
    }
    keyer.close()
    if let signal = watcher.stoppingSignal {
      log.info("stopped by \(Signals.name(signal)); key up")
      return ExitStatus.signalled(signal)
    }
    return exitStatus ?? ExitStatus.success
  }

  /// Does what the session said to after a request from `sender`; true for ESC 5 (exit).
  private func carry(
    _ effect: CWDaemonSession<InternetAddress>.Effect, from sender: InternetAddress,
    _ extras: CWDaemonKeyer.Job.Extras, _ keyer: CWDaemonKeyer, _ socket: CWDaemonSocket
  ) -> Bool {
    switch effect {
    case .key(let keying, let text):
      log.info("keying \"\(CWDaemonText.shown(text))\" from \(sender)")
      queue(.key(keying, text: CWDaemonText.shown(text), extras), on: keyer)
    case .abort: keyer.abort()
    case .tune(let duration): queue(.tune(duration, extras), on: keyer)
    case .reply(let bytes, let address): socket.send(bytes, to: address)
    case .ptt(let isOn):
      // Off is what it is between requests anyway.
      if isOn {
        log.warning(
          "ESC a1 ignored: PTT is raised around each request (with -t or ESC d over 0), "
            + "not held between them")
      }
    case .device(let name):
      keyer.use(deviceWords: checkedDevice(name, keyer: keyer))
      log.info("ESC 8 \(name): keying \(keyer.keyed) from now on")
    case .exit: return true
    case .warning(let line): log.warning(line)
    case .note(let line): log.info(line)
    }
    return false
  }

  /// Queues `job`; a flood that overflows the queue is said once.
  private func queue(_ job: CWDaemonKeyer.Job, on keyer: CWDaemonKeyer) {
    if keyer.enqueue(job) == .dropped(isFirst: true) {
      log.warning(
        "more than \(CWDaemonKeyer.queueLimit) bytes are waiting to be keyed: requests are "
          + "dropped until they have been")
    }
  }

  /// The sidetone `settings` ask for: their tone (within what `send --tone` plays) on the
  /// system's sound device, for a sound card's system (`-x s`, `a`, `p`, `o`) with a tone over
  /// 0 and aplay on the path; nil otherwise (`-x n`, cwdaemon's console buzzer `-x c`).
  private func sidetone(_ settings: CWDaemonSettings) -> Int? {
    guard ["s", "a", "p", "o"].contains(settings.soundSystem), settings.tone > 0,
      SoundPlayer.find(onPath: environment["PATH"] ?? "/usr/bin:/bin") != nil
    else { return nil }
    return min(max(settings.tone, SendPlan.toneRange.lowerBound), SendPlan.toneRange.upperBound)
  }

  /// `send`'s words for `device` (and the LEDs and GPIO lines of the command line): a port
  /// with no modem lines (a pty) or that is not there is keyed as null, with a warning, as
  /// cwdaemon does.
  ///
  /// The port is claimed and put back at once, as `send` claims it: opened, its lines as found.
  private func checkedDevice(_ device: String, keyer: CWDaemonKeyer) -> [String] {
    let words = plan.sendWords(device: device)
    guard words.count > plan.otherDevices.count else { return words }
    do {
      for port in try keyer.devices(Array(words.prefix(2))) ?? [] {
        let torch = try port.claim(saved: try port.saveState()).torch
        try torch.restore()
        // Each request opens the port, and each open at a speed other than 0 raises DTR and
        // RTS for a moment (a radio keyed, its PTT on): said once, with the way to stop it.
        if let serial = torch as? SerialTorch, serial.openRaisedLines {
          log.warning(
            "each request opens \(serial.path), which raises DTR and RTS for a moment (the "
              + "kernel does so unless the port's speed is 0); to stop it, set its speed to 0 "
              + "once: `stty -F \(serial.path) 0` (man morsetorch, SERIAL)")
        }
      }
      return words
    } catch {
      log.warning(
        "keying nothing for \(device), as cwdaemon does with a port it cannot key: "
          + failureReport(for: error).message)
      return plan.otherDevices
    }
  }
}

/// The listening socket: requests in, replies out from the same port (a client's connected
/// socket takes only those); a reply that cannot go is logged and the daemon goes on.
private final class CWDaemonSocket: Sendable {
  private let socket: DatagramSocket
  private let log: CWDaemonLog

  init(_ socket: consuming DatagramSocket, log: CWDaemonLog) {
    self.socket = socket
    self.log = log
  }

  /// The next request and its sender; nil once `event` fired.
  func receive(limit: Int, unlessFired event: OneShotEvent) throws(Errno) -> (
    bytes: [UInt8], sender: InternetAddress
  )? {
    try socket.receive(limit: limit, unlessFired: event)
  }

  func send(_ bytes: [UInt8], to address: InternetAddress) {
    do throws(Errno) {
      try socket.send(bytes, to: address)
      log.info("replied \"\(CWDaemonText.shown(bytes))\" to \(address)")
    } catch {
      log.warning("cannot reply to \(address): \(error)")
    }
  }
}
