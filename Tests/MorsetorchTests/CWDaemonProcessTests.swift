import Foundation
import Glibc
import LinuxSystem
import MorseTestSupport
import Testing

@testable import MorsetorchTool

/// `morsetorch cwdaemon` as a logging program meets it: datagrams in, replies out, an LED keyed
/// and put back for each request, shared with `stop` and `status`. cwdaemon's own functional
/// tests (`.ci/test-cwdaemon`) judge the keying of a real serial port.
@Suite("cwdaemon")
struct CWDaemonProcessTests {
  private let led = "cw::key"

  @Test(arguments: [
    ["-p", "1023"], ["-p", "65536"], ["--port", "0"], ["-p", "x"], ["-s", "61"],
    ["-o", "key=dtr", "-o", "ptt=dtr"], ["-o", "key=cts"], ["-y", "q"], ["--listen", "::1"],
    ["-t", "51"], ["-x", "z"], ["--frobnicate"],
  ])
  func badOptionsExitOneBeforeListening(options: [String]) throws {
    let leds = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["cwdaemon", "-n"] + options, ledsDirectory: leds.ledsPath)
    #expect(outcome.exitStatus == 1, "\(outcome)")
    #expect(outcome.standardError.hasPrefix("morsetorch: "), "\(outcome)")
  }

  @Test func theServiceRunsItInTheForegroundAndLeavesABadOptionForTheAdministrator() throws {
    let unit = try packagedUnit("morsetorch-cwdaemon.service")
    #expect(values(of: "ExecStart", in: unit) == ["/usr/bin/morsetorch cwdaemon -n $ARGS"])
    #expect(
      values(of: "RestartPreventExitStatus", in: unit) == [String(ExitStatus.cwdaemonFailure)])
    #expect(values(of: "EnvironmentFile", in: unit) == ["-/etc/default/morsetorch-cwdaemon"])
    // ARGS with a privileged port: the status the unit does not restart on.
    let leds = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["cwdaemon", "-n", "-p", "80", "-d", "ttyUSB0"], ledsDirectory: leds.ledsPath)
    #expect(outcome.exitStatus == ExitStatus.cwdaemonFailure, "\(outcome)")
    #expect(outcome.standardError.contains("1024 to 65535"), "\(outcome)")
  }

  /// A port nobody has, found by binding port 0 (the kernel's choice) and letting it go.
  private func freePort() throws -> Int {
    let socket = try DatagramSocket(binding: .loopback(port: 0))
    return Int(try socket.boundAddress().port)
  }

  /// A client: a socket of its own, as tlf's or cwdaemon's tests' client has.
  private final class Client: Sendable {
    let socket: DatagramSocket
    let server: InternetAddress

    init(port: Int, host: String = "127.0.0.1") throws {
      socket = try DatagramSocket(binding: .loopback(port: 0))
      server = try #require(InternetAddress(host, port: UInt16(port)))
    }

    func send(_ text: String) throws {
      try socket.send(Array(text.utf8), to: server)
    }

    /// The next datagram within `timeout`, as text, with who sent it; nil if none came.
    func reply(within timeout: Duration = .seconds(10)) throws -> (String, InternetAddress)? {
      let giveUp = OneShotEvent()
      try Threads.start {
        _ = giveUp.wait(untilMonotonic: MonotonicTime.now().advanced(by: timeout))
        giveUp.fire()
      }
      guard let (bytes, sender) = try socket.receive(limit: 300, unlessFired: giveUp) else {
        return nil
      }
      giveUp.fire()
      return (String(decoding: bytes, as: UTF8.self), sender)
    }
  }

  private func startDaemon(
    _ leds: TemporaryLEDDirectory, port: Int, options: [String] = [],
    environment: [String: String] = [:], tool: MorsetorchProcess.Tool = .shipped
  ) throws -> MorsetorchProcess {
    let daemon = try MorsetorchProcess(
      ["cwdaemon", "-n", "-p", String(port), "-s", "60", "-d", "null", "--led", led, "-y", "i"]
        + options, ledsDirectory: leds.ledsPath, environment: environment, tool: tool)
    let listening = eventually { daemon.standardErrorSoFar.contains("listening on UDP") }
    try #require(listening, "\(daemon.standardErrorSoFar)")
    return daemon
  }

  @Test func aCaretRequestIsKeyedOnTheLEDAndRepliedFromTheListeningPort() throws {
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led, trigger: "none [timer] heartbeat")
    let port = try freePort()
    let daemon = try startDaemon(leds, port: port)
    let client = try Client(port: port)
    try client.send("EE^\r\n")
    let reply = try #require(try client.reply())
    #expect(reply.0 == "EE\r\n")
    #expect(reply.1 == .loopback(port: UInt16(port)))
    // Between requests the LED is back as found, and nothing is being sent.
    #expect(try leds.read("trigger", of: led) == "timer\n")
    #expect(try leds.read("brightness", of: led) == "0\n")
    let status = try MorsetorchProcess.run(["status", "--led", led], ledsDirectory: leds.ledsPath)
    #expect(status.exitStatus == 3, "\(status)")
    try client.send("\u{1B}5")
    let outcome = try daemon.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("keying \"EE\""), "\(outcome)")
  }

  /// A daemon keying a long request with a caret on the LED, `status` showing it.
  private func startLongRequest(trigger: String = "[none] timer heartbeat") throws -> (
    TemporaryLEDDirectory, MorsetorchProcess, Client
  ) {
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led, trigger: trigger)
    let port = try freePort()
    let daemon = try startDaemon(leds, port: port)
    let client = try Client(port: port)
    // 0 is five dashes: a minute of them at 60 WPM would outlast any test.
    try client.send(String(repeating: "0", count: 200) + "^")
    let keying = eventually {
      (try? MorsetorchProcess.run(["status", "--led", led], ledsDirectory: leds.ledsPath))?
        .exitStatus == 0
    }
    try #require(keying)
    return (leds, daemon, client)
  }

  @Test func stopCancelsTheRequestBeingKeyedAndTheDaemonGoesOn() throws {
    let (leds, daemon, client) = try startLongRequest()
    let stop = try MorsetorchProcess.run(["stop", "--led", led], ledsDirectory: leds.ledsPath)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(stop.standardOutput.contains("pid \(daemon.processIdentifier)"), "\(stop)")
    #expect(try leds.read("brightness", of: led) == "0\n")
    // Its reply is `break`, as for ESC 4; still listening: the next request is answered.
    #expect(try client.reply()?.0 == "break\r\n")
    try client.send("E^")
    let reply = try #require(try client.reply())
    #expect(reply.0 == "E\r\n")
    daemon.send(signal: SIGTERM)
    let outcome = try daemon.wait()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(outcome.standardError.contains("cancelled by pid"), "\(outcome)")
    #expect(try leds.read("brightness", of: led) == "0\n")
  }

  @Test func abortAnswersBreakAndLeavesTheLEDOff() throws {
    let (leds, daemon, client) = try startLongRequest()
    try client.send("\u{1B}4")
    let reply = try #require(try client.reply())
    #expect(reply.0 == "break\r\n")
    let idle = eventually {
      (try? MorsetorchProcess.run(["status", "--led", led], ledsDirectory: leds.ledsPath))?
        .exitStatus == 3
    }
    #expect(idle)
    #expect(try leds.read("brightness", of: led) == "0\n")
    try client.send("\u{1B}5")
    #expect(try daemon.wait().exitStatus == 0)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func aSoundCardSystemPlaysTheSidetoneAndToneZeroSilencesIt() throws {
    let (directory, output) = try fakeSoundPlayer()
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led)
    let port = try freePort()
    let daemon = try startDaemon(
      leds, port: port, options: ["-x", "a", "-T", "700"],
      environment: ["PATH": directory.path + ":/usr/bin:/bin", "FAKE_APLAY_OUT": output])
    let client = try Client(port: port)
    func played() -> Int {
      (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
    }
    try client.send("E^")
    #expect(try client.reply()?.0 == "E\r\n")
    let withTone = played()
    #expect(withTone > 0, "nothing reached the player")
    try client.send("\u{1B}30")
    try client.send("E^")
    #expect(try client.reply()?.0 == "E\r\n")
    #expect(played() == withTone, "ESC 3 0 did not silence the sidetone")
    try client.send("\u{1B}5")
    #expect(try daemon.wait().exitStatus == 0)
  }

  @Test func aFloodOfOversizedAndBinaryDatagramsLeavesTheDaemonListeningAndTheLEDOff() throws {
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led)
    let port = try freePort()
    let daemon = try startDaemon(leds, port: port)
    let client = try Client(port: port)
    var generator = SystemRandomNumberGenerator()
    for round in 0..<300 {
      let size = round % 3 == 0 ? 2_000 : 200
      // Text of every byte (escape requests are the session's tests'), NUL and ^ included.
      var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if bytes[0] == 0x1B { bytes[0] = UInt8(ascii: "A") }
      try client.socket.send(round % 2 == 0 ? Array("0".utf8) + bytes : bytes, to: client.server)
    }
    try client.send("\u{1B}4")
    try client.send("E^")
    // A caret among the random bytes prepared a reply, which the abort answered `break`.
    var reply = try client.reply(within: .seconds(20))
    if reply?.0 == "break\r\n" { reply = try client.reply(within: .seconds(20)) }
    #expect(reply?.0 == "E\r\n")
    try client.send("\u{1B}5")
    let outcome = try daemon.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let warnings = outcome.standardError.components(separatedBy: "are dropped until").count - 1
    #expect(warnings == 1, "\(outcome.standardError.suffix(2_000))")
    #expect(try leds.read("brightness", of: led) == "0\n")
  }

  @Test func ctrlZPutsTheLEDBackWhileStoppedAndTheRequestGoesOnAfter() throws {
    let (leds, daemon, client) = try startLongRequest(trigger: "none [timer] heartbeat")
    // Keying (a mark seen), so past the claim: what Ctrl-Z puts back is known by then.
    let isKeying = try eventually { try leds.read("brightness", of: led) == "255\n" }
    try #require(isKeying)
    daemon.send(signal: SIGTSTP)
    // Continued only once stopped: a SIGCONT before the stop is the shell's business.
    try #require(eventually { state(of: daemon.processIdentifier) == "T" })
    let putBack = try eventually { try leds.read("trigger", of: led) == "timer\n" }
    #expect(putBack, "the LED was not put back while the daemon was stopped")
    #expect(try leds.read("brightness", of: led) == "0\n")
    daemon.send(signal: SIGCONT)
    let takenAgain = try eventually { try leds.read("trigger", of: led) == "none\n" }
    #expect(takenAgain, "the request did not go on after SIGCONT")
    try client.send("\u{1B}4")
    #expect(try client.reply()?.0 == "break\r\n")
    try client.send("\u{1B}5")
    #expect(try daemon.wait().exitStatus == 0)
    try expectTimerRestoredAfterDaemon(leds)
  }

  @Test func anLEDThatVanishesMidRequestIsLoggedAndTheDaemonGoesOn() throws {
    let (leds, daemon, client) = try startLongRequest()
    try leds.removeLED(led)
    // The request fails: its reply is `break`, as for a stop.
    #expect(try client.reply()?.0 == "break\r\n")
    try client.send("E^")
    #expect(try client.reply()?.0 == "break\r\n", "a request on no LED was answered as keyed")
    #expect(daemon.isRunning)
    try client.send("\u{1B}5")
    let outcome = try daemon.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("not keyed to its end"), "\(outcome)")
  }

  /// A pseudo-terminal has no modem lines: cwdaemon keys nothing on it, and says so.
  @Test func aPortWithNoModemLinesIsKeyedAsNullWithAWarning() throws {
    // posix_openpt(3) by hand (Swift's Glibc leaves it out): the multiplexer, unlocked, and
    // the number of its terminal.
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    defer { close(master) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    // TIOCSPTLCK and TIOCGPTN (_IOW/_IOR('T', 0x31/0x30, int): macros Swift cannot import),
    // the same on x86_64 and arm64.
    try #require(ioctl(master, 0x4004_5431, &unlock) == 0)
    try #require(ioctl(master, 0x8004_5430, &number) == 0)
    let path = "/dev/pts/\(number)"
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led)
    let port = try freePort()
    let daemon = try startDaemon(leds, port: port, options: ["-d", path])
    let client = try Client(port: port)
    try client.send("E^")
    #expect(try client.reply()?.0 == "E\r\n")
    try client.send("\u{1B}5")
    let outcome = try daemon.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(
      outcome.standardError.contains("keying nothing for \(path), as cwdaemon does"),
      "\(outcome)")
    #expect(outcome.standardError.contains("has no modem lines"), "\(outcome)")
    #expect(outcome.standardError.contains("; keying --led \(led)\n"), "\(outcome)")
  }

  @Test func aGPIOLineIsKeyedInStepWithTheLEDAndLeftInactive() throws {
    let gpio = try TemporaryGPIODirectory()
    try gpio.addChip(0, label: "pinctrl-bcm2711", lines: 28, names: [17: "GPIO17"])
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led)
    let levels = AttributeRecorder(path: gpio.valuePath(chip: 0, line: 17))
    let port = try freePort()
    let daemon = try startDaemon(
      leds, port: port, options: ["--gpio", "pinctrl-bcm2711:GPIO17"],
      environment: gpio.environment, tool: .simulatedGPIO)
    let client = try Client(port: port)
    try client.send("EE^")
    #expect(try client.reply()?.0 == "EE\r\n")
    try client.send("\u{1B}5")
    #expect(try daemon.wait().exitStatus == 0)
    #expect(levels.stop().drop { $0 == "0\n" } == ["1\n", "0\n", "1\n", "0\n"])
    #expect(try leds.read("brightness", of: led) == "0\n")
  }

  /// `--listen` binds the address named, and no other.
  @Test func listenBindsTheAddressItNames() throws {
    let leds = try TemporaryLEDDirectory()
    _ = try leds.addLED(led)
    let port = try freePort()
    let daemon = try startDaemon(leds, port: port, options: ["--listen", "127.0.0.2"])
    #expect(daemon.standardErrorSoFar.contains("listening on UDP 127.0.0.2:\(port)"))
    let elsewhere = try Client(port: port)
    try elsewhere.send("E^")
    #expect(try elsewhere.reply(within: .milliseconds(500)) == nil)
    let named = try Client(port: port, host: "127.0.0.2")
    try named.send("E^")
    #expect(try named.reply()?.0 == "E\r\n")
    try named.send("\u{1B}5")
    #expect(try daemon.wait().exitStatus == 0)
  }

  @Test func versionNamesTheProtocol() throws {
    let leds = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(["cwdaemon", "-V"], ledsDirectory: leds.ledsPath)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.contains("(cwdaemon 0.13 protocol)"), "\(outcome)")
  }

  private func expectTimerRestoredAfterDaemon(_ leds: TemporaryLEDDirectory) throws {
    #expect(try leds.read("trigger", of: led) == "timer\n")
    #expect(try leds.read("brightness", of: led) == "0\n")
  }
}
