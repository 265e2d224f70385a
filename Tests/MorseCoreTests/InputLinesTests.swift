import Foundation
import MorseCore
import Testing

@Suite struct InputLinesTests {
  @Test func aLineIsHandedOverBeforeTheEndOfInput() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[1]) }
    let source = StreamLineSource(fileDescriptor: ends[0])
    _ = "SOS\nHALF".withCString { write(ends[1], $0, 8) }
    // The writer is still open: the complete line must come now, without waiting for EOF.
    #expect(try source.nextLine() == Array("SOS".utf8))
    _ = "\n".withCString { write(ends[1], $0, 1) }
    #expect(try source.nextLine() == Array("HALF".utf8))
    source.close()
    #expect(try source.nextLine() == nil)
  }

  @Test func theLastLineNeedsNoNewline() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    _ = "A\n\nB".withCString { write(ends[1], $0, 4) }
    close(ends[1])
    let source = StreamLineSource(fileDescriptor: ends[0])
    #expect(try source.nextLine() == Array("A".utf8))
    #expect(try source.nextLine() == [])
    #expect(try source.nextLine() == Array("B".utf8))
    #expect(try source.nextLine() == nil)
  }

  @Test func aReadErrorIsReported() throws {
    let source = StreamLineSource(fileDescriptor: -1)
    #expect(throws: InputError.self) { try source.nextLine() }
  }

  @Test func manyLinesPassThroughTheBoundedQueue() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let writer = ends[1]
    Thread.detachNewThread {
      for index in 0..<1000 {
        let line = "\(index)\n"
        _ = line.withCString { write(writer, $0, strlen($0)) }
      }
      close(writer)
    }
    let source = StreamLineSource(fileDescriptor: ends[0], capacity: 2)
    var lines: [String] = []
    while let line = try source.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
    #expect(lines == (0..<1000).map(String.init))
  }
}
