import MorseCore

/// The text of a request, as cwdaemon keys it: byte by byte through libcw's table
/// (`LibcwAlphabet`), where `+` and `-` change the speed by 2 WPM from there on (and for later
/// requests), `~` lengthens the gap after the next character by two units, `*` is AR, a space
/// is a word gap, and the first `^` ends the text and asks for it back as the reply.
public struct CWDaemonText: Sendable, Equatable {
  /// The bytes before the first `^` (all of them without one).
  public let bytes: [UInt8]
  /// Whether a `^` asked for the text back once it is keyed.
  public let hasCaret: Bool

  /// The text of a request's bytes (already cut at a NUL and stripped of its trailing CR/LF).
  public init(_ request: [UInt8]) {
    if let caret = request.firstIndex(of: UInt8(ascii: "^")) {
      bytes = Array(request[..<caret])
      // cwdaemon's quirk, kept: a `^` right after a `~`-gapped character is skipped with it,
      // and asks for no reply.
      hasCaret = !Self.caretFollowsGappedCharacter(request, caret: caret)
    } else {
      bytes = request
      hasCaret = false
    }
  }

  /// The reply a caret asks for: the text as it came, then CR LF.
  public var reply: [UInt8] { bytes + [0x0D, 0x0A] }

  /// Whether the byte before `caret` is a character (not a marker) that a `~` two back gapped.
  private static func caretFollowsGappedCharacter(_ request: [UInt8], caret: Int) -> Bool {
    caret >= 2 && request[caret - 2] == UInt8(ascii: "~")
      && ![UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "~")].contains(request[caret - 1])
  }

  /// The steps that key the text at `speed` WPM with `weighting`, the speed it leaves (after
  /// its `+` and `-`), the gap it leaves before whatever comes next, and the bytes it dropped
  /// (no code).
  public func keying(speed: Int, weighting: Int) -> CWDaemonKeying {
    var builder = CWDaemonKeying.Builder(speed: speed, weighting: weighting)
    var isGapPending = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let step = byte == UInt8(ascii: "+") ? 2 : -2
        builder.speed = min(
          max(builder.speed + step, CWDaemonSettings.speedRange.lowerBound),
          CWDaemonSettings.speedRange.upperBound)
      case UInt8(ascii: "~"): isGapPending = true
      case 0x20: builder.addWordGap()
      // cwdaemon skips 0xFF (it crashed libcw 8.0.0); it is no character.
      case 0xFF: builder.dropped.append(byte)
      default:
        let code =
          byte == UInt8(ascii: "*")
          ? LibcwAlphabet.code(of: UInt8(ascii: "+")) : LibcwAlphabet.code(of: byte)
        guard let code else {
          builder.dropped.append(byte)
          continue
        }
        builder.add(
          MorseSymbol(text: LibcwAlphabet.text(of: byte), code: code), extraGap: isGapPending)
        isGapPending = false
      }
    }
    return builder.keying
  }

  /// `bytes` as a log shows them: printable ASCII as it is, anything else as `\xNN`.
  public static func shown(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { byte in
      (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\\")
        ? String(Character(Unicode.Scalar(byte)))
        : "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }.joined()
  }
}
