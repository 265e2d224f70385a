import MorseCore

/// The Morse table cwdaemon keys with: libcw's (unixcw 3.6), byte by byte. Where it differs
/// from morsetorch's own (`MorseAlphabet`), a logging program written for cwdaemon expects
/// this one: `!` is `...-.` (SN), `^` is KA, `<` is SK, `>` is BK, and the accented capitals
/// are single Latin-1 bytes. Lower-case ASCII letters are keyed as capitals; every other byte
/// (control bytes, `#`, `%`, `[`, lower-case accents, each byte of a UTF-8 sequence) has no
/// code and is dropped, as cwdaemon drops it.
public enum LibcwAlphabet {
  /// The code of `byte`, or nil when libcw has none. `+`, `-`, `~`, `^` and `*` are read by
  /// the request before they come here (`CWDaemonText`).
  public static func code(of byte: UInt8) -> MorseCode? {
    var key = byte
    if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { key -= 0x20 }
    return table[key]
  }

  /// What a byte is shown as in logs and steps: ASCII as itself, Latin-1 as its character.
  static func text(of byte: UInt8) -> String {
    String(Character(Unicode.Scalar(byte)))
  }

  // A table: every entry libcw 3.6 lists (`cw_list_characters`), with its representation.
  private static let table: [UInt8: MorseCode] = {
    let rows: [(UInt8, String)] = [
      (0x41, ".-"), (0x42, "-..."), (0x43, "-.-."), (0x44, "-.."), (0x45, "."),
      (0x46, "..-."), (0x47, "--."), (0x48, "...."), (0x49, ".."), (0x4A, ".---"),
      (0x4B, "-.-"), (0x4C, ".-.."), (0x4D, "--"), (0x4E, "-."), (0x4F, "---"),
      (0x50, ".--."), (0x51, "--.-"), (0x52, ".-."), (0x53, "..."), (0x54, "-"),
      (0x55, "..-"), (0x56, "...-"), (0x57, ".--"), (0x58, "-..-"), (0x59, "-.--"),
      (0x5A, "--.."),
      (0x30, "-----"), (0x31, ".----"), (0x32, "..---"), (0x33, "...--"), (0x34, "....-"),
      (0x35, "....."), (0x36, "-...."), (0x37, "--..."), (0x38, "---.."), (0x39, "----."),
      (UInt8(ascii: "\""), ".-..-."), (UInt8(ascii: "'"), ".----."),
      (UInt8(ascii: "$"), "...-..-"), (UInt8(ascii: "("), "-.--."),
      (UInt8(ascii: ")"), "-.--.-"), (UInt8(ascii: "+"), ".-.-."),
      (UInt8(ascii: ","), "--..--"), (UInt8(ascii: "-"), "-....-"),
      (UInt8(ascii: "."), ".-.-.-"), (UInt8(ascii: "/"), "-..-."),
      (UInt8(ascii: ":"), "---..."), (UInt8(ascii: ";"), "-.-.-."),
      (UInt8(ascii: "="), "-...-"), (UInt8(ascii: "?"), "..--.."),
      (UInt8(ascii: "_"), "..--.-"), (UInt8(ascii: "@"), ".--.-."),
      (UInt8(ascii: "!"), "...-."), (UInt8(ascii: "&"), ".-..."),
      (UInt8(ascii: "^"), "-.-.-"), (UInt8(ascii: "<"), "...-.-"),
      (UInt8(ascii: ">"), "-...-.-"), (UInt8(ascii: "~"), ".-.-.."),
      (0xDC, "..--"), (0xC4, ".-.-"), (0xC7, "-.-.."), (0xD6, "---."), (0xC9, "..-.."),
      (0xC8, ".-..-"), (0xC0, ".--.-"), (0xD1, "--.--"), (0xAA, "----"), (0xAE, "--..-"),
    ]
    var table: [UInt8: MorseCode] = [:]
    for (byte, code) in rows { table[byte] = MorseCode(code) }
    return table
  }()
}
