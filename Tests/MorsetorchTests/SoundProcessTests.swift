import Foundation
import MorseTestSupport
import Testing

@testable import MorsetorchTool

/// A stand-in for aplay on the path: takes the raw samples at a sound card's pace (48 kHz,
/// 16-bit mono, 10 ms at a time at absolute deadlines) into `$FAKE_APLAY_OUT`, saying its
/// buffer as `aplay -v` does; the device `nosuch` is refused as aplay refuses it, and so is
/// a time that is not a whole number of microseconds.
let fakeSoundPlayerScript = """
  #!/usr/bin/env python3
  import os, sys, time
  for argument in sys.argv[1:]:
      if argument.startswith(("--buffer-time=", "--period-time=")) and \\
              not argument.split("=")[1].isdigit():
          print(f"aplay: main:687: invalid time argument '{argument}'", file=sys.stderr)
          sys.exit(1)
  device = sys.argv[sys.argv.index("-D") + 1]
  if device == "nosuch":
      print("aplay: main:850: audio open error: No such file or directory", file=sys.stderr)
      sys.exit(1)
  print("Plug PCM: Linear conversion PCM (S16_LE)\\n  buffer_size  : 1920\\n  period_size  : 480",
        file=sys.stderr, flush=True)
  if "FAKE_APLAY_GROUP" in os.environ:
      with open(os.environ["FAKE_APLAY_GROUP"], "w") as group:
          group.write(f"{os.getpid()} {os.getpgid(0)}")
  out = open(os.environ["FAKE_APLAY_OUT"], "ab")
  start, n = time.monotonic(), 0
  while True:
      data = b""
      while len(data) < 960:
          more = os.read(0, 960 - len(data))
          if not more:
              break
          data += more
      if not data:
          break
      out.write(data)
      n += 1
      time.sleep(max(0, start + n * 0.010 - time.monotonic()))
  """

/// A directory holding the fake player as `aplay`, and where it writes.
func fakeSoundPlayer() throws -> (directory: TemporaryDirectory, output: String) {
  let directory = try TemporaryDirectory("sound")
  try writeExecutable(Array(fakeSoundPlayerScript.utf8), to: directory.path + "/aplay")
  return (directory, directory.path + "/played.raw")
}

/// `send --sound` through a player that is not aplay (the VM plays through the kernel's own
/// loopback card): what reaches the player, and what a user meets when there is no player, no
/// device, or an option that does not fit.
@Suite(
  "send --sound", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
struct SoundProcessTests {
  private func player() throws -> (directory: TemporaryDirectory, output: String) {
    try fakeSoundPlayer()
  }

  private func run(
    _ arguments: [String], path: String, output: String = "/dev/null",
    environment: [String: String] = [:]
  ) throws -> MorsetorchProcess.Outcome {
    let leds = try TemporaryLEDDirectory()
    return try MorsetorchProcess.run(
      arguments, ledsDirectory: leds.ledsPath,
      environment: ["PATH": path, "FAKE_APLAY_OUT": output].merging(environment) { $1 })
  }

  /// Before: the player shared morsetorch's process group, so the terminal's Ctrl-C ended it
  /// too, and the stop read as "cannot play" (74) in two runs of three.
  @Test func thePlayerLeadsAProcessGroupOfItsOwn() throws {
    let (directory, _) = try player()
    let group = directory.path + "/group"
    let outcome = try run(
      ["send", "--sound", "--unit", "20", "E"], path: directory.path + ":/usr/bin:/bin",
      environment: ["FAKE_APLAY_GROUP": group])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let ids = try String(contentsOfFile: group, encoding: .utf8).split(separator: " ")
    #expect(ids.count == 2 && ids[0] == ids[1], "pid and group: \(ids)")
  }

  /// The marks of 16-bit samples: (start, length) in samples, a mark being where some sample
  /// of each millisecond is louder than a tenth of full scale.
  private func marks(_ path: String) throws -> [(start: Int, length: Int, samples: [Int16])] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
      Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
    }
    var marks: [(Int, Int, [Int16])] = []
    var start: Int?
    for block in stride(from: 0, to: samples.count, by: 48) {
      let loud = samples[block..<min(block + 48, samples.count)].contains { abs(Int($0)) > 3276 }
      if loud, start == nil { start = block }
      if !loud, let begun = start {
        marks.append((begun, block - begun, Array(samples[begun..<block])))
        start = nil
      }
    }
    return marks
  }

  @Test func theMorseReachesThePlayerAsATone() throws {
    let (directory, output) = try player()
    let outcome = try run(
      ["send", "--sound", "--tone", "700", "--unit", "40", "EE"],
      path: directory.path + ":/usr/bin:/bin", output: output)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let heard = try marks(output)
    // Two dots a letter gap apart: two marks, the gap between them longer than either.
    #expect(heard.count == 2, "\(heard.map { ($0.start, $0.length) })")
    guard heard.count == 2 else { return }
    let gap = heard[1].start - heard[0].start - heard[0].length
    #expect(gap > heard[0].length && gap > heard[1].length)
    // At the pitch asked for: 700 rises through zero a second, 28 in a 40 ms dot (give or
    // take the edges' shaping).
    let rises = zip(heard[0].samples, heard[0].samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }
    let pitch = Double(rises.count) / (Double(heard[0].length) / 48_000)
    #expect(abs(pitch - 700) < 70, "\(pitch) Hz")
  }

  @Test func aDeviceThePlayerRefusesIsNamedWithTheWayOut() throws {
    let (directory, _) = try player()
    let outcome = try run(
      ["send", "--sound", "nosuch", "E"], path: directory.path + ":/usr/bin:/bin")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("cannot play on sound device nosuch"), "\(outcome)")
    #expect(outcome.standardError.contains("aplay -L"), "\(outcome)")
  }

  @Test func withoutAPlayerThePackageToInstallIsNamed() throws {
    let empty = try TemporaryDirectory("nothing")
    let outcome = try run(["send", "--sound", "E"], path: empty.path)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("apt install alsa-utils"), "\(outcome)")
  }

  @Test(arguments: [
    ["--tone", "700"], ["--sound", "--tone", "50"], ["--sound", "a/b"], ["--sound", "--preview"],
  ])
  func optionsThatDoNotFitAreUsageErrors(options: [String]) throws {
    let (directory, _) = try player()
    let outcome = try run(["send"] + options + ["E"], path: directory.path + ":/usr/bin:/bin")
    #expect(outcome.exitStatus == 64, "\(outcome)")
  }

  @Test func withAnLEDBothAreSentAndTheLEDIsPutBack() throws {
    let (directory, output) = try player()
    let leds = try TemporaryLEDDirectory()
    try leds.addLED(
      "input0::capslock", maxBrightness: 1, brightness: 0, trigger: "[none] kbd-capslock")
    let outcome = try MorsetorchProcess.run(
      ["send", "--sound", "--led", "input0::capslock", "--unit", "30", "E"],
      ledsDirectory: leds.ledsPath,
      environment: ["PATH": directory.path + ":/usr/bin:/bin", "FAKE_APLAY_OUT": output])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try marks(output).count == 1)
    #expect(try leds.read("brightness", of: "input0::capslock") == "0\n")
    #expect(try leds.read("trigger", of: "input0::capslock") == "[none] kbd-capslock\n")
  }

  /// `--sound` without DEVICE names the system's own, for `stop` and `status` as for `send`
  /// (not every device, as no option would).
  @Test func stopWithoutADeviceMeansTheSystemsOwn() throws {
    let (directory, _) = try player()
    let outcome = try run(["stop", "--sound"], path: directory.path + ":/usr/bin:/bin")
    #expect(outcome.exitStatus == 3, "\(outcome)")
    #expect(
      outcome.standardError.contains("nothing is being sent on sound device default"), "\(outcome)")
  }

  @Test func listShowsTheCardsAndSaysWhenThereAreNone() throws {
    let (directory, _) = try player()
    let cards = directory.path + "/cards"
    try """
     0 [PCH            ]: HDA-Intel - HDA Intel PCH
                          HDA Intel PCH at 0xf7f10000 irq 32
     1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones

    """.write(toFile: cards, atomically: true, encoding: .utf8)
    let leds = try TemporaryLEDDirectory()
    let listed = try MorsetorchProcess.run(
      ["list", "--sound"], ledsDirectory: leds.ledsPath,
      environment: ["PATH": directory.path + ":/usr/bin:/bin", "MORSETORCH_SOUND_CARDS": cards])
    #expect(listed.exitStatus == 0, "\(listed)")
    #expect(listed.standardOutput.contains("plughw:CARD=Headphones  bcm2835 Headphones"))
    #expect(listed.standardOutput.contains("plughw:CARD=PCH"))
    let none = try MorsetorchProcess.run(
      ["list", "--sound"], ledsDirectory: leds.ledsPath,
      environment: [
        "PATH": directory.path + ":/usr/bin:/bin", "MORSETORCH_SOUND_CARDS": directory.path + "/no",
      ])
    #expect(none.exitStatus == 69, "\(none)")
    #expect(none.standardError.contains("no sound cards"), "\(none)")
  }
}
