import Foundation
import MorseTestSupport
import Testing

@testable import LinuxSystem

@Suite("FileSystem")
struct FileSystemTests {
  @Test func replaceFileTruncatesSoShorterValuesLeaveNoTail() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/value"
    try Data("255\n".utf8).write(to: URL(fileURLWithPath: path))
    try FileSystem.replaceFile(path, with: Array("0\n".utf8))
    #expect(try FileSystem.readFile(path) == Array("0\n".utf8))
  }

  @Test func replaceFileNeverCreatesAFile() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/missing"
    #expect(throws: Errno(code: ENOENT)) { try FileSystem.replaceFile(path, with: [0x31]) }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func replaceFileOnADirectoryFailsWithEISDIR() throws {
    let directory = try TemporaryLEDDirectory()
    #expect(throws: Errno(code: EISDIR)) {
      try FileSystem.replaceFile(directory.ledsPath, with: [0x31])
    }
  }

  @Test func readFileReadsEverythingAcrossChunks() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/long"
    let content = Array(repeating: UInt8(ascii: "7"), count: 10_000)
    try Data(content).write(to: URL(fileURLWithPath: path))
    #expect(try FileSystem.readFile(path) == content)
  }

  @Test func readFileRefusesAHugeFile() throws {
    let directory = try TemporaryLEDDirectory()
    let path = directory.root + "/huge"
    try Data(count: FileSystem.maximumFileSize + 1).write(to: URL(fileURLWithPath: path))
    #expect(throws: Errno(code: EFBIG)) { try FileSystem.readFile(path) }
  }

  @Test func readFileOfMissingFileThrowsENOENT() throws {
    let directory = try TemporaryLEDDirectory()
    #expect(throws: Errno(code: ENOENT)) { try FileSystem.readFile(directory.root + "/missing") }
  }

  @Test func directoryEntriesListsNamesWithoutDotEntries() throws {
    let directory = try TemporaryLEDDirectory()
    try directory.addLED("b")
    try directory.addLED("a:white:flash")
    let names = try FileSystem.directoryEntries(directory.ledsPath)
    #expect(names.sorted() == ["a:white:flash", "b"])
  }

  @Test func directoryEntriesOfMissingDirectoryThrowsENOENT() throws {
    let directory = try TemporaryLEDDirectory()
    #expect(throws: Errno(code: ENOENT)) {
      try FileSystem.directoryEntries(directory.root + "/missing")
    }
  }

  @Test func isDirectoryFollowsSymlinks() throws {
    let directory = try TemporaryLEDDirectory()
    let link = try directory.addLED("led")
    #expect(try FileSystem.status(link).isDirectory)
    #expect(try !FileSystem.status(link + "/brightness").isDirectory)
    #expect(throws: Errno(code: ENOENT)) { _ = try FileSystem.status(link + "/missing") }
  }

  @Test func isAccessibleIsFalseForAMissingFile() throws {
    let directory = try TemporaryLEDDirectory()
    let link = try directory.addLED("led")
    #expect(FileSystem.isWritable(link + "/brightness"))
    #expect(!FileSystem.isWritable(link + "/missing"))
  }
}
