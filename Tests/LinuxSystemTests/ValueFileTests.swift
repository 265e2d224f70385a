import Foundation
import Testing

@testable import LinuxSystem

@Suite struct ValueFileTests {
  @Test func eachRewriteLeavesExactlyTheNewValueInAPlainFile() throws {
    let path = NSTemporaryDirectory() + "/valuefile-\(UUID().uuidString)"
    try "0\n".write(toFile: path, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try ValueFile(path: path)
    for value in ["255\n", "0\n", "1023\n", "7\n"] {
      try file.rewrite(Array(value.utf8))
      // Not "0\n5\n": a plain file is cut to the value, as sysfs takes a write whole.
      #expect(try String(contentsOfFile: path, encoding: .utf8) == value)
    }
    try file.close()
  }

  @Test func aFileThatCannotBeOpenedIsTheOpenError() {
    #expect(throws: Errno.noSuchFile) { _ = try ValueFile(path: "/nonexistent/brightness") }
  }
}
