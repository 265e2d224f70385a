import Foundation
import Glibc
import MorseTestSupport
import Testing

// `send --detach`, as processes.

private func timerFixture() throws -> TemporaryLEDDirectory {
  let fixture = try TemporaryLEDDirectory()
  try fixture.addLED(
    led, maxBrightness: 255, brightness: 0, trigger: "none [timer] heartbeat",
    attributes: ["delay_on": "100\n", "delay_off": "900\n"])
  return fixture
}

/// A datagram socket standing in for the system log (/dev/log), at a temporary path.
private final class LogListener {
  let path: String
  private let socket: Int32

  init(in directory: String) throws {
    path = directory + "/log"
    socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard socket >= 0, bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
  }

  deinit { close(socket) }

  /// The messages that arrive within `timeout` of the last one (or of the call).
  func messages(within timeout: Int32 = 10_000, until done: ([String]) -> Bool) -> [String] {
    var received: [String] = []
    var request = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    while !done(received), poll(&request, 1, timeout) > 0 {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = recv(socket, &buffer, buffer.count, 0)
      if count > 0 { received.append(String(decoding: buffer[..<count], as: UTF8.self)) }
    }
    return received
  }
}

@Suite("send --detach")
struct DetachTests {
  /// A long transmission detached, logging to a listener of the test's; its pid.
  private func detachLogging(to log: LogListener, in fixture: TemporaryLEDDirectory) throws
    -> String
  {
    let outcome = try MorsetorchProcess.run(
      ["send", "--detach", "--led", led, "--unit", "300", "TTTTT"],
      ledsDirectory: fixture.ledsPath, environment: ["MORSETORCH_SYSLOG_SOCKET": log.path])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    return try #require(
      outcome.standardOutput.firstMatch(of: /background \(pid ([0-9]+)\)/).map { String($0.1) })
  }

  @Test func laterErrorsOfTheBackgroundCopyGoToTheSystemLog() throws {
    let fixture = try timerFixture()
    let log = try LogListener(in: fixture.root)
    let pid = try detachLogging(to: log, in: fixture)
    // The LED goes away at 3 a.m.: the background copy has no terminal to say so on.
    try fixture.removeLED(led)
    let messages = log.messages { $0.contains { $0.contains("disappeared") } }
    let error = messages.first { $0.contains("disappeared") }
    // Facility user (1), severity error (3): <11>.
    #expect(error?.hasPrefix("<11>morsetorch[\(pid)]: the LED disappeared") == true, "\(messages)")
    // The journal names the sender itself: `morsetorch[PID]: morsetorch: …` said it twice.
    #expect(!messages.contains { $0.contains("]: morsetorch: ") }, "\(messages)")
  }

  @Test func aStopOfTheBackgroundCopyIsANoteInTheSystemLog() throws {
    let fixture = try timerFixture()
    let log = try LogListener(in: fixture.root)
    let pid = try detachLogging(to: log, in: fixture)
    _ = try run(["stop", "--led", led], in: fixture)
    let messages = log.messages { $0.contains { $0.contains("stopped by") } }
    // Severity notice (5): <13>.
    #expect(
      messages.contains {
        $0.hasPrefix("<13>morsetorch[\(pid)]: ") && $0.contains("stopped by pid")
      })
    try expectTimerRestored(fixture)
  }

  @Test func theShellGetsItsPromptBackWhileTheLEDIsSending() throws {
    let fixture = try timerFixture()
    let outcome = try run(
      ["send", "--detach", "--led", led, "--unit", "300", "TTTTT"], in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // TTTTT at 300 ms takes 8.1 s; the prompt came back long before that.
    #expect(outcome.elapsed < .seconds(4), "\(outcome)")
    let pid = try #require(
      outcome.standardOutput.firstMatch(of: /background \(pid ([0-9]+)\)/).map { String($0.1) },
      "\(outcome)")
    // The LED is already claimed by the background copy, which status names.
    #expect(try fixture.read("trigger", of: led) == "none\n")
    let status = try run(["status", "--led", led], in: fixture)
    #expect(status.standardOutput.contains("pid \(pid)"), "\(status)")
    let stop = try run(["stop", "--led", led], in: fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    try expectTimerRestored(fixture)
  }

  @Test func aDetachedTransmissionFinishesAndRestoresByItself() throws {
    let fixture = try timerFixture()
    let outcome = try run(["send", "--detach", "--led", led, "--unit", "5", "EE"], in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let finished = eventually {
      (try? run(["status", "--led", led], in: fixture).exitStatus) == 3
    }
    #expect(finished, "the background transmission never ended")
    try expectTimerRestored(fixture)
  }

  @Test func errorsOfTheBackgroundCopyComeBack() throws {
    let fixture = try timerFixture()
    let outcome = try run(["send", "--detach", "--led", "nope", "E"], in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("nope"), "\(outcome)")
    #expect(outcome.standardError.contains(led), "it lists the LEDs that exist: \(outcome)")
    #expect(!outcome.standardOutput.contains("background"), "\(outcome)")
  }

  @Test func aDetachedRerunTogglesLikeAnyRerun() throws {
    let fixture = try timerFixture()
    let first = try run(["send", "--detach", "--led", led, "--unit", "300", "TTTTT"], in: fixture)
    #expect(first.exitStatus == 0, "\(first)")
    let second = try run(["send", "--detach", "--led", led, "E"], in: fixture)
    // The same status as a plain rerun: nothing was sent.
    #expect(second.exitStatus == 4, "\(second)")
    #expect(second.standardOutput.contains("cancelled the transmission"), "\(second)")
    #expect(!second.standardOutput.contains("background"), "\(second)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: [
    ["--detach"], ["--detach", "-"], ["--detach", "--wait", "E"], ["--detach", "--queue", "E"],
    ["--detach", "--dry-run", "E"], ["--detach", "--preview", "E"],
  ])
  func detachNeedsTextAndAForegroundFreeOption(options: [String]) throws {
    let fixture = try timerFixture()
    let outcome = try run(["send", "--led", led] + options, in: fixture, input: "E\n")
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("--detach"), "\(outcome)")
    #expect(try fixture.read("trigger", of: led) == "none [timer] heartbeat\n")
  }

  @Test func aCopyThatSaysMoreThanAPipeHoldsBeforeItIsReadyStillStarts() throws {
    let fixture = try TemporaryLEDDirectory()
    // So many torches that the note naming the one chosen is longer than a pipe (64 KiB).
    for index in 0..<2600 {
      try fixture.addLED("torch-\(index)-" + String(repeating: "x", count: 20), trigger: "none")
    }
    let outcome = try MorsetorchProcess.run(
      ["send", "--detach", "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      timeout: .seconds(60))
    // Before: the parent waited for "ready" while the copy waited for the parent to read.
    #expect(outcome.exitStatus == 0, "\(outcome.exitStatus as Any)")
    #expect(outcome.standardError.contains("using LED"))
    #expect(outcome.standardError.count > 65_536)
    #expect(outcome.standardOutput.contains("sending in the background"))
  }
}
