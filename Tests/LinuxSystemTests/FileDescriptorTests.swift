import Foundation
import MorseTestSupport
import Testing

@testable import LinuxSystem

/// The file `number` refers to now (device and inode), or nil when it is closed. Another
/// test running at the same time may be given the same number for a file of its own, so a
/// closed descriptor is told by the file, not by the number alone.
private func fileIdentity(_ number: Int32) -> [UInt64]? {
  var status = stat()
  guard fstat(number, &status) == 0 else { return nil }
  return [UInt64(status.st_dev), UInt64(status.st_ino)]
}

@Suite("FileDescriptor")
struct FileDescriptorTests {
  @Test func aDroppedDescriptorIsClosed() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/file"
    try Data("x".utf8).write(to: URL(fileURLWithPath: path))
    var number: Int32 = -1
    var identity: [UInt64]?
    do {
      let file = try FileDescriptor.open(path, .readOnly)
      number = file.rawValue
      identity = fileIdentity(number)
      #expect(identity != nil)
    }
    #expect(fileIdentity(number) != identity, "closed when its owner ended")
  }

  @Test func closeReportsAndConsumes() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/file"
    let file = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
    let number = file.rawValue
    let identity = fileIdentity(number)
    #expect(identity != nil)
    try file.close()
    #expect(fileIdentity(number) != identity)
  }

  @Test func noFollowRefusesASymlink() throws {
    let fixture = try TemporaryLEDDirectory()
    try Data("x".utf8).write(to: URL(fileURLWithPath: fixture.root + "/target"))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.root + "/link", withDestinationPath: fixture.root + "/target")
    #expect(throws: Errno.tooManySymbolicLinks) {
      _ = try FileDescriptor.open(fixture.root + "/link", [.readOnly, .noFollow])
    }
  }

  @Test func aSecondWriteLockIsRefusedAndItsHolderNamedFromAnotherProcessOnly() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/lock"
    let file = try FileDescriptor.open(path, [.readWrite, .create])
    #expect(try file.lock(exclusive: true, wait: false))
    // POSIX locks belong to the process: this process sees no conflicting holder.
    #expect(try file.lockHolder() == nil)
  }

  @Test func writeWholeAndReadAllRoundTrip() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/data"
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
    let writer = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
    try writer.writeWhole(bytes)
    try writer.close()
    let reader = try FileDescriptor.open(path, .readOnly)
    #expect(try reader.readAll(limit: 20_000) == bytes)
    let again = try FileDescriptor.open(path, .readOnly)
    #expect(throws: Errno.fileTooLarge) { _ = try again.readAll(limit: 100) }
  }

  @Test func aPipeCarriesBytesAndEndsWhenItsWriteEndCloses() throws {
    let pipe = try LinuxSystem.Pipe()
    try pipe.writeEnd.writeAll(Array("hello".utf8))
    let reader = pipe.closingWriteEnd()
    #expect(try reader.readAll() == Array("hello".utf8))
  }

  @Test func aWaitForInputEndsWhenTheEventFiresFromAnotherThread() throws {
    let pipe = try LinuxSystem.Pipe()
    let event = OneShotEvent()
    try Threads.start { event.fire() }
    let isReadable = pipe.readEnd.waitUntilReadable(unlessFired: event)
    #expect(!isReadable)
  }

  @Test func aWaitForInputEndsWhenInputOrTheEndComes() throws {
    let pipe = try LinuxSystem.Pipe()
    let event = OneShotEvent()
    try pipe.writeEnd.writeAll([1])
    let hasInput = pipe.readEnd.waitUntilReadable(unlessFired: event)
    #expect(hasInput)
    let reader = pipe.closingWriteEnd()
    _ = try reader.readAll()
    let hasEnd = reader.waitUntilReadable(unlessFired: event)
    #expect(hasEnd, "the end of input is readable too")
  }

  @Test func aFIFOWithNoWriterYetOpensAtOnceAndIsNotReadable() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/fifo"
    try #require(mkfifo(path, 0o600) == 0)
    let reader = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    let isReadable = reader.waitUntilReadable(timeout: .milliseconds(20))
    #expect(!isReadable, "not until a writer comes: reading now would find an end of input")
  }
  @Test func aFIFOWithNoReaderIsNoSuchDeviceOrAddressOpenedNonBlockingToWrite() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/fifo"
    try #require(mkfifo(path, 0o600) == 0)
    #expect(throws: Errno.noSuchDeviceOrAddress) {
      _ = try FileDescriptor.open(path, [.writeOnly, .nonBlocking])
    }
    #expect(try FileSystem.status(path).isFIFO)
  }

  @Test func aWriteToAFullPipeWaitsOnlyUntilTheEventFires() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/fifo"
    try #require(mkfifo(path, 0o600) == 0)
    let reader = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    let writer = try FileDescriptor.open(path, [.writeOnly, .nonBlocking])
    let event = OneShotEvent()
    #expect(try writer.writeAll([UInt8](repeating: 1, count: 1000), unlessFired: event))
    let firing = Thread { _ = event.fire() }
    // More than the pipe holds, and no one reads: only the firing ends the wait.
    firing.start()
    #expect(try !writer.writeAll([UInt8](repeating: 2, count: 1 << 20), unlessFired: event))
    var byte: UInt8 = 0
    let count = try withUnsafeMutableBytes(of: &byte) { try reader.read(into: $0) }
    #expect(count == 1 && byte == 1)
  }

  @Test func aReadWaitsForInputOnlyUntilTheEventFires() throws {
    let pipe = try LinuxSystem.Pipe()
    let event = OneShotEvent()
    try pipe.writeEnd.writeWhole([7])
    var bytes = [UInt8](repeating: 0, count: 8)
    let first = try bytes.withUnsafeMutableBytes {
      try pipe.readEnd.read(into: $0, unlessFired: event)
    }
    #expect(first == 1 && bytes[0] == 7)
    event.fire()
    let second = try bytes.withUnsafeMutableBytes {
      try pipe.readEnd.read(into: $0, unlessFired: event)
    }
    #expect(second == nil)
  }
}
