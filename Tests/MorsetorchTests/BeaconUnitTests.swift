import Foundation
import Glibc
import MorseTestSupport
import Testing

@testable import MorsetorchTool

/// A systemd unit the package ships, read from the source tree.
func packagedUnit(_ name: String) throws -> String {
  let path =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path + "/Sources/morsetorch/Packaging/" + name
  return try String(contentsOfFile: path, encoding: .utf8)
}

/// The systemd unit shipped for beacons.
private func unit() throws -> String {
  try packagedUnit("morsetorch-beacon@.service")
}

/// The values of `key=` lines in a unit.
func values(of key: String, in unit: String) -> [String] {
  unit.split(separator: "\n").compactMap { line in
    line.hasPrefix(key + "=") ? String(line.dropFirst(key.count + 1)) : nil
  }
}

@Suite("the beacon's systemd unit")
struct BeaconUnitTests {
  @Test func itFindsItsConfigurationByTheLEDsRealNameAndTellsTheToolItIsAService() throws {
    let text = try unit()
    // %I: the instance unescaped, so `platform::mic\x2dmute` reads beacon-platform::mic-mute.
    #expect(values(of: "EnvironmentFile", in: text) == ["-/etc/morsetorch/beacon-%I.conf"])
    #expect(values(of: "Environment", in: text).contains("MORSETORCH_SERVICE=%n"))
  }

  /// `morsetorch-beacon@platform::mic-mute` gives `--led platform::mic/mute` (%I unescapes
  /// `-` as `/`): the error says how to escape the name (issue 31).
  @Test func anUnescapedInstanceNameIsAnsweredWithSystemdEscape() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("platform::mic-mute", trigger: "[none] audio-micmute")
    let outcome = try MorsetorchProcess.run(
      ["send", "--loop", "--replace", "--led", "platform::mic/mute", "--", "VVV"],
      ledsDirectory: fixture.ledsPath,
      environment: ["MORSETORCH_SERVICE": "morsetorch-beacon@platform::mic-mute.service"])
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(
      outcome.standardError.contains(
        #"morsetorch-beacon@$(systemd-escape 'platform::mic-mute').service"#), "\(outcome)")
    let plain = try MorsetorchProcess.run(
      ["send", "--led", "platform::mic/mute", "VVV"], ledsDirectory: fixture.ledsPath)
    #expect(!plain.standardError.contains("systemd-escape"), "not under systemd: \(plain)")
  }

  @Test func detachingUnderTheServiceIsRefusedAndNothingIsClaimed() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash", trigger: "none [timer]")
    let outcome = try MorsetorchProcess.run(
      ["send", "--detach", "--loop", "--led", "white:flash", "E"],
      ledsDirectory: fixture.ledsPath,
      environment: ["MORSETORCH_SERVICE": "morsetorch-beacon@white:flash.service"])
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("--detach cannot be used under the systemd service"))
    #expect(outcome.standardError.contains("OPTIONS"), "\(outcome)")
    #expect(try fixture.read("trigger", of: "white:flash") == "none [timer]\n")
    let runtime = fixture.root + "/run"
    let left = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
    #expect(!left.contains { $0.hasSuffix(".state") }, "\(left)")
  }

  @Test func itsCommandLineIsASendLoopTheToolAccepts() throws {
    let unit = try unit()
    let execStart = try #require(values(of: "ExecStart", in: unit).first)
    var words = execStart.split(separator: " ").map(String.init)
    #expect(words.removeFirst() == "/usr/bin/morsetorch")
    #expect(words.first == "send")
    // As systemd expands it for instance white:flash and a configuration file's values.
    let expanded = words.dropFirst().flatMap { word -> [String] in
      switch word {
      case "%I": ["white:flash"]
      case "$OPTIONS": ["--wpm", "15", "--pause", "10s"]
      case "${TEXT}": ["CQ CQ DE N0CALL"]
      default: [word]
      }
    }
    let arguments = try ParsedArguments<SendOption>(expanded, command: "send")
    let plan = try SendPlan(arguments)
    let repetition = plan.repetition
    #expect(repetition.count == nil, "not a --loop")
    #expect(repetition.pause == .seconds(10))
    #expect(plan.conflicts == .replace, "a beacon starting would toggle off")
    #expect(arguments.values[.led] == "white:flash")
    #expect(arguments.operands == ["CQ CQ DE N0CALL"])
  }

  @Test func stoppingIsASuccessAndOnlyPassingFailuresAreTriedAgain() throws {
    let unit = try unit()
    #expect(values(of: "KillSignal", in: unit) == ["SIGTERM"])
    #expect(values(of: "SuccessExitStatus", in: unit) == ["\(ExitStatus.signalled(SIGTERM))"])
    #expect(values(of: "Restart", in: unit) == ["on-failure"])
    let prevented = Set(
      values(of: "RestartPreventExitStatus", in: unit).flatMap { $0.split(separator: " ") }
        .compactMap { Int32($0) })
    #expect(
      prevented
        == [
          ExitStatus.usage, ExitStatus.dataError, ExitStatus.permissionDenied,
          ExitStatus.configuration,
        ])
    // /sys must stay writable (the LED is written there), and so must the runtime directory
    // under an otherwise read-only system; the two capabilities are the timing's.
    #expect(!unit.contains("ProtectKernelTunables=yes"))
    #expect(values(of: "ProtectSystem", in: unit) == ["strict"])
    #expect(values(of: "ReadWritePaths", in: unit) == ["-/run/morsetorch"])
    #expect(values(of: "CapabilityBoundingSet", in: unit) == ["CAP_SYS_NICE CAP_IPC_LOCK"])
    // A system call the filter refuses fails with EPERM instead of killing the beacon
    // mid-message with its LED on.
    #expect(values(of: "SystemCallErrorNumber", in: unit) == ["EPERM"])
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
  func systemdFindsNothingWrongWithIt() throws {
    let directory = NSTemporaryDirectory() + "/beacon-unit-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // The built executable stands in for /usr/bin/morsetorch, which verify wants to exist.
    let text = try unit().replacingOccurrences(
      of: "/usr/bin/morsetorch", with: try MorsetorchProcess.executablePath())
    try text.write(
      toFile: directory + "/morsetorch-beacon@.service", atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/morsetorch-beacon@test.service",
      withDestinationPath: "morsetorch-beacon@.service")
    let verified = try ProgramRun(
      "/usr/bin/systemd-analyze",
      ["verify", "--man=no", directory + "/morsetorch-beacon@test.service"])
    #expect(verified.status == 0, "\(verified.output)")
    #expect(verified.output.isEmpty, "\(verified.output)")
  }
}
