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

  @Test func aLongLineComesInPiecesBeforeItsEndAndAtSpaces() throws {
    let pipe = try LinuxSystem.Pipe()
    let writer = Writer(pipe.writeEnd)
    defer { writer.close() }
    let source = try StreamLineSource(reading: pipe.readEnd, pieceLimit: 100)
    let words = (0..<1000).map { "w\($0)" }.joined(separator: " ")
    try writer.write(words)  // no newline, and the writer stays open
    var pieces: [LinePiece] = []
    var received = 0
    while received < words.utf8.count - 100, let piece = try source.nextPiece() {
      pieces.append(piece)
      received += piece.bytes.count
    }
    // Before: nothing came until a newline or the end of input; memory grew with the line.
    #expect(pieces.count > 10)
    #expect(pieces.allSatisfy { $0.bytes.count <= 100 })
    #expect(pieces.first?.continuesLine == false)
    #expect(pieces.dropFirst().allSatisfy { $0.continuesLine })
    #expect(pieces.allSatisfy { $0.bytes.last == UInt8(ascii: " ") }, "cut after a space")
    try writer.write("\nnext\n")
    var rest: [LinePiece] = []
    while let piece = try source.nextPiece(), piece.bytes != Array("next".utf8) {
      rest.append(piece)
    }
    let whole = (pieces + rest).flatMap(\.bytes)
    #expect(whole == Array(words.utf8))
  }

  @Test func aWordLongerThanAPieceIsCutWhereTheLimitFallsButNotInAProsign() throws {
    let word = String(repeating: "E", count: 97) + "<SK>" + String(repeating: "T", count: 150)
    let pipe = try LinuxSystem.Pipe()
    let writer = Writer(pipe.writeEnd)
    defer { writer.close() }
    let source = try StreamLineSource(reading: pipe.readEnd, pieceLimit: 100)
    try writer.write(word)  // no newline yet: it comes in pieces
    var pieces: [LinePiece] = []
    while pieces.count < 2, let piece = try source.nextPiece() { pieces.append(piece) }
    try writer.write(" E\n")
    if let last = try source.nextPiece() { pieces.append(last) }
    // Cut before the prosign the limit would have split, then at the limit inside the word.
    #expect(pieces.map(\.bytes.count) == [97, 100, 56])
    #expect(pieces.map(\.breaksWord) == [true, true, false])
    #expect(pieces.flatMap(\.bytes) == Array((word + " E").utf8))
  }

  @Test func aWordThatEndsWhereTheLimitFallsIsNotBroken() throws {
    let pipe = try LinuxSystem.Pipe()
    let writer = Writer(pipe.writeEnd)
    defer { writer.close() }
    let source = try StreamLineSource(reading: pipe.readEnd, pieceLimit: 100)
    try writer.write(String(repeating: "E", count: 100) + " T")  // the space just past it
    let first = try #require(try source.nextPiece())
    try writer.write("\n")
    let rest = try #require(try source.nextPiece())
    // Before: cut inside no word but said to be (its last byte no space), so "T" went on
    // after a letter gap: "EEEE…ET".
    #expect(first.bytes.count == 100 && !first.breaksWord)
    #expect(rest.bytes == Array(" T".utf8) && rest.endsLine)
  }

  @Test func aPieceIsNeverCutInsideACharacter() {
    let line = Array(String(repeating: "Ж", count: 100).utf8)  // 2 bytes each, no space
    let cut = StreamLineSource.cut(line, limit: 51)
    #expect(cut == 50)
    #expect(UTF8Lines.repairing(line[..<cut]) == String(repeating: "Ж", count: 25))
  }
}
