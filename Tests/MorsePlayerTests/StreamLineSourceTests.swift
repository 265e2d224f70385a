import Foundation
import LinuxSystem
import MorseCore
import Testing

@testable import MorsePlayer

/// The write end of a pipe, shared with a writer thread.
private final class Writer: @unchecked Sendable {
  private var file: FileDescriptor?
  init(_ file: consuming FileDescriptor) { self.file = .some(file) }
  func write(_ text: String) throws {
    switch file {
    case .some(let file): try file.writeAll(Array(text.utf8))
    case .none: break
    }
  }
  func close() { if let file = file.take() { try? file.close() } }
}

@Suite struct StreamLineSourceTests {
  @Test func aLineIsHandedOverBeforeTheEndOfInput() throws {
    let pipe = try LinuxSystem.Pipe()
    let writer = Writer(pipe.writeEnd)
    defer { writer.close() }
    let source = try StreamLineSource(reading: pipe.readEnd)
    try writer.write("SOS\nHALF")
    // The writer is still open: the complete line must come now, without waiting for EOF.
    #expect(try source.nextLine() == Array("SOS".utf8))
    try writer.write("\n")
    #expect(try source.nextLine() == Array("HALF".utf8))
    source.close()
    #expect(try source.nextLine() == nil)
  }

  @Test func theLastLineNeedsNoNewline() throws {
    let pipe = try LinuxSystem.Pipe()
    let writer = Writer(pipe.writeEnd)
    try writer.write("A\n\nB")
    writer.close()
    let source = try StreamLineSource(reading: pipe.readEnd)
    #expect(try source.nextLine() == Array("A".utf8))
    #expect(try source.nextLine() == [])
    #expect(try source.nextLine() == Array("B".utf8))
    #expect(try source.nextLine() == nil)
  }

  @Test func aReadErrorIsReported() throws {
    // read(2) on a directory fails with EISDIR.
    let source = try StreamLineSource(reading: FileDescriptor.open("/", .readOnly))
    #expect(throws: InputError.readFailed(Errno(code: EISDIR))) { try source.nextLine() }
  }

  @Test func manyLinesPassThroughTheBoundedQueue() throws {
    let pipe = try LinuxSystem.Pipe()
    let writer = Writer(pipe.writeEnd)
    Thread.detachNewThread {
      for index in 0..<1000 { try? writer.write("\(index)\n") }
      writer.close()
    }
    let source = try StreamLineSource(reading: pipe.readEnd, capacity: 2)
    var lines: [String] = []
    while let line = try source.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
    #expect(lines == (0..<1000).map(String.init))
  }
}
