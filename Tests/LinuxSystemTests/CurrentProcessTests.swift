import Glibc
import LinuxSystem
import Testing

@Suite struct CurrentProcessTests {
  /// `entries` as a null-terminated C list, for `environmentVariables(from:)`.
  private func variables(of entries: [[UInt8]]) -> [String: String] {
    let strings = entries.map { bytes -> UnsafeMutablePointer<CChar> in
      let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
      pointer[bytes.count] = 0
      return pointer
    }
    defer { strings.forEach { $0.deallocate() } }
    let list: [UnsafeMutablePointer<CChar>?] = strings + [nil]
    return list.withUnsafeBufferPointer { CurrentProcess.environmentVariables(from: $0.baseAddress!) }
  }

  @Test func eachEntryIsANameAndTheValueAfterTheFirstEqualsSign() {
    let result = variables(of: [
      Array("TERM=dumb".utf8), Array("EMPTY=".utf8), Array("OPTS=a=b=c".utf8),
      Array("NOEQUALS".utf8),
    ])
    #expect(result == ["TERM": "dumb", "EMPTY": "", "OPTS": "a=b=c"])
  }

  @Test func aNameGivenTwiceHasItsFirstValueAsGetenvFindsIt() {
    let result = variables(of: [Array("LED=first".utf8), Array("LED=second".utf8)])
    #expect(result["LED"] == "first")
  }

  @Test func bytesThatAreNotUTF8AreRepaired() {
    let result = variables(of: [Array("NAME=a".utf8) + [0xFF] + Array("b".utf8)])
    #expect(result["NAME"] == "a\u{FFFD}b")
  }

  @Test func theProcessEnvironmentAgreesWithGetenv() {
    let result = CurrentProcess.environmentVariables()
    for name in ["PATH", "HOME"] {
      let expected = getenv(name).map { String(cString: $0) }
      #expect(result[name] == expected, "\(name)")
    }
    #expect(!result.isEmpty)
  }
}
