import MorseCorpus
import MorseTestSupport
import Testing

@testable import MorseCore

/// The fuzzing that found the encoder solid, kept as a test: deterministic (a fixed seed),
/// bounded (a few seconds), run in CI. Each input either works or fails with a `MorseError`;
/// nothing traps or hangs, and what encodes decodes back (a free-form prosign aside).
@Suite struct FuzzTests {
  /// SplitMix64 (`MorseTestSupport`): a failure can be replayed.
  typealias Generator = SplitMix64

  /// Characters a log line, a shell or a person might send, and some that nobody should.
  private static let alphabet: [Character] =
    Array("ABCXYZabcxyz0123456789 .,:?'-/()\"=+@!$&;_<>[]{}|~^\\`#*%\t\r\n")
    + ["ä", "é", "ß", "½", "×", "€", "😀", "\u{301}", "\u{7}", "\u{1B}", "Ж", "Ω", "\u{202E}"]

  private static let morseMarks: Set<Character> = [".", "-", "/", " "]

  @Test func randomTextEncodesOrFailsCleanlyAndDecodesBack() throws {
    var random = Generator(state: 0x5EED)
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...40, using: &random)
      let text = String((0..<length).map { _ in Self.alphabet.randomElement(using: &random)! })
      for policy in [UnknownCharacterPolicy.reject, .skip] {
        // Typed throws: every failure is a MorseError (the compiler checks that).
        guard let message = try? MorseMessage(text, unknownCharacters: policy) else { continue }
        let encoded = message.encoded
        let isMorse = encoded.allSatisfy { Self.morseMarks.contains($0) }
        #expect(isMorse, "\(text)")
        // Whatever was encoded is Morse the decoder reads; only a prosign of any letters
        // (`<XYZ>`: one joined code) may be a code no table names.
        var decodes = true
        do {
          _ = try MorseDecoder.decode(encoded)
        } catch {
          decodes = false
        }
        #expect(decodes || text.contains("<"), "\(text.debugDescription) → \(encoded)")
      }
    }
  }

  @Test func randomBytesAreUTF8OrANamedError() {
    var random = Generator(state: 0xB17E5)
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 0...24, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      do {
        let text = try UTF8Lines.decode(bytes, line: 3)
        #expect(Array(text.utf8) == bytes)
      } catch {
        guard case .invalidUTF8(let line, let column, _) = error else {
          Issue.record("unexpected \(error) for \(bytes)")
          continue
        }
        #expect(line == 3 && column >= 1 && column <= bytes.count)
      }
    }
  }

  @Test func randomMorseDecodesOrFailsCleanly() {
    var random = Generator(state: 0xD0D0)
    let marks: [Character] = [".", "-", " ", "/", "  ", "x", "\n"].flatMap { Array($0) }
    for _ in 0..<20_000 {
      let text = String(
        (0..<Int.random(in: 0...30, using: &random)).map { _ in marks.randomElement(using: &random)!
        })
      do {
        _ = try MorseDecoder.decode(text)
      } catch {
        guard case .unknownCode = error else {
          Issue.record("unexpected \(error) for \(text.debugDescription)")
          continue
        }
      }
    }
  }

  @Test func randomTextExpandsIntoAlternatingSteps() throws {
    var random = Generator(state: 0x57E9)
    for _ in 0..<2_000 {
      let text = String(
        (0..<Int.random(in: 1...20, using: &random)).map { _ in
          Self.alphabet.randomElement(using: &random)!
        })
      guard let message = try? MorseMessage(text, unknownCharacters: .skip) else { continue }
      var previous: Bool?
      for step in MorseSteps(message, timing: .standard) {
        #expect(step.isOn != previous, "\(text.debugDescription)")
        #expect(step.duration > .zero)
        previous = step.isOn
      }
      #expect(previous != false, "a message ends on a mark, never on a gap")
    }
  }
}
