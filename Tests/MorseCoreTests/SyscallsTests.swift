import Foundation
import MorseTestSupport
import Testing

@testable import MorseCore

@Suite("Syscalls")
struct SyscallsTests {
  @Test func errnoShowsTextAndSymbolicName() {
    let denied = Errno(code: EACCES)
    #expect(denied.name == "EACCES")
    #expect(denied.message == "Permission denied")
    #expect(denied.description == "Permission denied (EACCES)")
    #expect(Errno(code: EBUSY).name == "EBUSY")
    #expect(Errno(code: ENODEV).name == "ENODEV")
  }

  @Test func errnoWithoutKnownNameStillDescribesItself() {
    let unknown = Errno(code: 4242)
    #expect(unknown.name == "errno 4242")
    #expect(!unknown.message.isEmpty)
  }

  @Test func errnosAreEqualByCode() {
    #expect(Errno(code: ENOENT) == Errno(code: ENOENT))
    #expect(Errno(code: ENOENT) != Errno(code: ENXIO))
    #expect(Set([Errno(code: EIO), Errno(code: EIO)]).count == 1)
  }

  @Test func interruptedCallsAreRetried() throws {
    var calls = 0
    let result = try Syscalls.retryingOnInterrupt { () -> Int32 in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 3)
  }

  @Test func otherFailuresThrowTheirErrno() {
    var calls = 0
    #expect(throws: Errno(code: EACCES)) {
      _ = try Syscalls.retryingOnInterrupt { () -> Int in
        calls += 1
        errno = EACCES
        return -1
      }
    }
    #expect(calls == 1)
  }

  @Test func nonNegativeResultsPassThrough() throws {
    #expect(try Syscalls.retryingOnInterrupt { Int32(0) } == 0)
    #expect(try Syscalls.retryingOnInterrupt { Int(-2) } == -2)
  }

  @Test func replaceFileTruncatesSoShorterValuesLeaveNoTail() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/value"
    try Data("255\n".utf8).write(to: URL(fileURLWithPath: path))
    try Syscalls.replaceFile(path, with: Array("0\n".utf8))
    #expect(try Syscalls.readFile(path) == Array("0\n".utf8))
  }

  @Test func replaceFileNeverCreatesAFile() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/missing"
    #expect(throws: Errno(code: ENOENT)) { try Syscalls.replaceFile(path, with: [0x31]) }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func replaceFileOnADirectoryFailsWithEISDIR() throws {
    let directory = try TemporaryLEDDirectory()
    #expect(throws: Errno(code: EISDIR)) {
      try Syscalls.replaceFile(directory.ledsPath, with: [0x31])
    }
  }

  @Test func readFileReadsEverythingAcrossChunks() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/long"
    let content = Array(repeating: UInt8(ascii: "7"), count: 10_000)
    try Data(content).write(to: URL(fileURLWithPath: path))
    #expect(try Syscalls.readFile(path) == content)
  }

  @Test func readFileRefusesAHugeFile() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/huge"
    try Data(count: Syscalls.maximumFileSize + 1).write(to: URL(fileURLWithPath: path))
    #expect(throws: Errno(code: EFBIG)) { try Syscalls.readFile(path) }
  }

  @Test func readFileOfMissingFileThrowsENOENT() throws {
    let directory = try TemporaryLEDDirectory()
    #expect(throws: Errno(code: ENOENT)) { try Syscalls.readFile(directory.root + "/missing") }
  }

  @Test func directoryEntriesListsNamesWithoutDotEntries() throws {
    let directory = try TemporaryLEDDirectory()
    try directory.addLED("b")
    try directory.addLED("a:white:flash")
    let names = try Syscalls.directoryEntries(directory.ledsPath)
    #expect(names.sorted() == ["a:white:flash", "b"])
  }

  @Test func directoryEntriesOfMissingDirectoryThrowsENOENT() throws {
    let directory = try TemporaryLEDDirectory()
    #expect(throws: Errno(code: ENOENT)) {
      try Syscalls.directoryEntries(directory.root + "/missing")
    }
  }

  @Test func isDirectoryFollowsSymlinks() throws {
    let directory = try TemporaryLEDDirectory()
    let link = try directory.addLED("led")
    #expect(try Syscalls.isDirectory(link))
    #expect(try !Syscalls.isDirectory(link + "/brightness"))
    #expect(throws: Errno(code: ENOENT)) { try Syscalls.isDirectory(link + "/missing") }
  }

  @Test func isAccessibleIsFalseForAMissingFile() throws {
    let directory = try TemporaryLEDDirectory()
    let link = try directory.addLED("led")
    #expect(Syscalls.isAccessible(link + "/brightness", W_OK))
    #expect(!Syscalls.isAccessible(link + "/missing", W_OK))
  }
}
