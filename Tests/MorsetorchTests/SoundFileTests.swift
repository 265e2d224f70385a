import Foundation
import MorseTestSupport
import Testing

/// `send --dry-run --wav FILE`: the WAV as a file, read back here sample by sample (what a
/// decoder makes of it is `.ci/test-sound`'s, with multimon-ng).
@Suite("send --dry-run --wav")
struct SoundFileTests {
  private func wav(_ options: [String], text: String = "E") throws -> (
    bytes: [UInt8], run: MorsetorchProcess.Outcome
  ) {
    let fixture = try TemporaryLEDDirectory()
    let directory = try TemporaryDirectory("wav")
    let path = directory.path + "/sound.wav"
    let run = try MorsetorchProcess.run(
      ["send", "--dry-run", "--wav", path] + options + [text], ledsDirectory: fixture.ledsPath)
    return (Array(FileManager.default.contents(atPath: path) ?? Data()), run)
  }

  private func samples(_ bytes: [UInt8]) -> [Int16] {
    stride(from: 44, to: bytes.count - 1, by: 2).map {
      Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
    }
  }

  private func little32(_ bytes: [UInt8], at offset: Int) -> Int {
    (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << ($1 * 8) }
  }

  @Test func theMarginIsAWordGapWhenThatIsLongerThanASecond() throws {
    // --unit 200: a word gap of 1.4 s before and after a 200 ms dot.
    let (bytes, _) = try wav(["--unit", "200"])
    let sound = samples(bytes)
    #expect(sound.count == 48 * (1400 + 200 + 1400))
    #expect(sound[..<(48 * 1400)].allSatisfy { $0 == 0 })
    #expect(sound[(48 * 1410)..<(48 * 1590)].contains { $0 > 10_000 })
  }

  @Test func aSecondOfSilenceTheMarksAtTheirTimesThenASecondMore() throws {
    // "EE" at --unit 100: marks at 0-100 and 400-500 ms, after a second's lead.
    let (bytes, run) = try wav(["--unit", "100"], text: "EE")
    #expect(run.exitStatus == 0, "\(run)")
    #expect(run.standardOutput.isEmpty && run.standardError.isEmpty, "\(run)")
    let sound = samples(bytes)
    #expect(sound.count == 48_000 * 2 + 48 * 500, "\(sound.count) samples")
    #expect(little32(bytes, at: 40) == sound.count * 2 && little32(bytes, at: 4) == bytes.count - 8)
    func loud(_ from: Int, _ to: Int) -> Bool {
      sound[from * 48..<to * 48].contains { abs(Int($0)) > 10_000 }
    }
    func silent(_ from: Int, _ to: Int) -> Bool {
      sound[from * 48..<to * 48].allSatisfy { $0 == 0 }
    }
    #expect(silent(0, 1000) && loud(1010, 1095) && silent(1106, 1400))
    #expect(loud(1410, 1495) && silent(1506, 2500))
  }

  @Test(arguments: [400, 600, 1000])
  func theToneIsThePitchAsked(tone: Int) throws {
    let (bytes, run) = try wav(["--unit", "100", "--tone", String(tone)])
    #expect(run.exitStatus == 0, "\(run)")
    // Zero crossings in the steady middle of the dot (1.02 s to 1.08 s): two a period.
    let middle = samples(bytes)[48_960..<51_840]
    let crossings = zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    #expect(abs(crossings - tone * 12 / 100) <= 1, "\(crossings) crossings in 60 ms")
  }

  @Test(arguments: [
    ["send", "--wav", "x.wav", "E"], ["send", "--dry-run", "--edges", "--wav", "x.wav", "E"],
    ["send", "--dry-run", "--tone", "600", "E"],
    ["send", "--dry-run", "--wav", "-", "--tone", "99", "E"],
    ["send", "--dry-run", "--wav", "-", "--tone", "4001", "E"],
  ])
  func optionsThatDoNotFitAreUsageErrors(arguments: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let run = try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath)
    #expect(run.exitStatus == 64, "\(run)")
  }

  @Test func aDirectoryOrAFIFOIsNoPlaceForTheSound() throws {
    let fixture = try TemporaryLEDDirectory()
    let directory = try TemporaryDirectory("wav")
    let run = try MorsetorchProcess.run(
      ["send", "--dry-run", "--wav", directory.path, "E"], ledsDirectory: fixture.ledsPath)
    #expect(run.exitStatus == 73, "\(run)")
    #expect(run.standardError.contains("for --wav: Is a directory"), "\(run)")
    #expect(mkfifo(directory.path + "/fifo", 0o644) == 0)
    let fifo = try MorsetorchProcess.run(
      ["send", "--dry-run", "--wav", directory.path + "/fifo", "E"], ledsDirectory: fixture.ledsPath
    )
    #expect(fifo.exitStatus == 73, "\(fifo)")
    #expect(fifo.standardError.contains("not a regular file"), "\(fifo)")
  }
}
