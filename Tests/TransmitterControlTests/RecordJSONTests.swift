import Foundation
import GPIODriver
import LEDDriver
import Testing

@testable import TransmitterControl

@Suite("RecordJSON")
struct RecordJSONTests {
  private let saved = SavedLEDState(
    trigger: "netdev", brightness: 7,
    triggerAttributes: [
      .init(name: "device_name", content: "lo"), .init(name: "interval", content: "80"),
    ])

  private func record(text: String = "SOS", startedAt: Double = 1_763_812_345.123456)
    -> TransmissionRecord<SavedLEDState>
  {
    var record = TransmissionRecord(
      pid: 4242, device: "white:flash", text: text, totalSymbols: 3, saved: saved,
      startedAt: startedAt)
    record.sentSymbols = 2
    record.rounds = 0
    record.round = 17
    record.group = ["a:b", "white:flash"]
    return record
  }

  @Test(arguments: [
    "SOS", "quote \" backslash \\ slash /", "tab\tnew\nline\rcr \u{01}\u{1F}\u{7F}",
    "ä é 中文 🔦 e\u{301}", "",
  ])
  func aRecordRoundTripsWithAnyText(text: String) throws {
    let original = record(text: text)
    let bytes = try RecordJSON.encode(original)
    #expect(!bytes.contains(0x0A), "one line")
    #expect(try RecordJSON.decode(TransmissionRecord<SavedLEDState>.self, from: bytes) == original)
  }

  @Test(arguments: [0.0, 1000, 1_763_812_345.123456, 5e-324, 1.7976931348623157e308, -2.5])
  func doublesComeBackExactly(value: Double) throws {
    let original = record(startedAt: value)
    let decoded = try RecordJSON.decode(
      TransmissionRecord<SavedLEDState>.self, from: try RecordJSON.encode(original))
    #expect(decoded.startedAt == value)
  }

  @Test func aNonFiniteNumberIsNotWritten() {
    #expect(throws: EncodingError.self) { try RecordJSON.encode(record(startedAt: .infinity)) }
    #expect(throws: EncodingError.self) { try RecordJSON.encode(record(startedAt: .nan)) }
  }

  @Test func keysAreSortedAndAbsentOptionalsAreLeftOut() throws {
    let plain = TransmissionRecord(
      pid: 1, device: "d", text: "E", totalSymbols: nil, saved: saved, startedAt: 2)
    let text = String(decoding: try RecordJSON.encode(plain), as: UTF8.self)
    #expect(!text.contains("totalSymbols") && !text.contains("group") && !text.contains("round"))
    let keys = ["led", "line", "pid", "saved", "sentSymbols", "startedAt", "text", "version"]
    let positions = keys.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
    #expect(positions.count == keys.count && positions == positions.sorted(), "\(text)")
  }

  @Test func aRecordFoundationWroteStillReads() throws {
    // The format before this codec: Foundation's JSONEncoder, sorted keys, "/" escaped.
    let original = record(text: "a/b \"c\" ü")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = Array(try encoder.encode(original))
    #expect(String(decoding: bytes, as: UTF8.self).contains("\\/"))
    #expect(try RecordJSON.decode(TransmissionRecord<SavedLEDState>.self, from: bytes) == original)
  }

  @Test func whatThisCodecWritesFoundationReadsAlike() throws {
    let original = record(text: "tab\t \u{7F} 🔦")
    let bytes = try RecordJSON.encode(original)
    #expect(
      try JSONDecoder().decode(TransmissionRecord<SavedLEDState>.self, from: Data(bytes))
        == original)
  }

  @Test func aGPIORecordRoundTrips() throws {
    let line = SavedGPIOLine(chip: "gpiochip0", offset: 17, isActiveLow: true)
    let original = TransmissionRecord(
      pid: 9, device: "gpio/gpiochip0/17", text: "E", totalSymbols: 1, saved: line, startedAt: 3)
    let bytes = try RecordJSON.encode(original)
    #expect(try RecordJSON.decode(TransmissionRecord<SavedGPIOLine>.self, from: bytes) == original)
  }

  private enum Shape: Codable, Hashable {
    case none
    case pulse(on: Int, off: Int?)
    case named(String, [Double])
  }

  private struct Nested: Codable, Hashable {
    var shapes: [Shape]
    var table: [String: [Int]]
    var maybe: Shape?
  }

  @Test func nestedContainersRoundTrip() throws {
    let value = Nested(
      shapes: [.none, .pulse(on: 1, off: nil), .pulse(on: 2, off: 3), .named("x", [0.5, -1])],
      table: ["b": [1, 2], "a": []], maybe: .named("", []))
    let bytes = try RecordJSON.encode(value)
    #expect(try RecordJSON.decode(Nested.self, from: bytes) == value)
    #expect(try JSONDecoder().decode(Nested.self, from: Data(bytes)) == value)
  }

  @Test func nullAndEscapesAreRead() throws {
    let text = """
      {"led":"x","line":1,"pid":5,"saved":{"brightness":0,"trigger":null,"triggerAttributes":[]},
       "sentSymbols":0,"startedAt":1.5e3,"text":"\\u00e9\\ud83d\\udd26\\/\\b\\f","version":1,
       "totalSymbols":null}
      """
    let decoded = try RecordJSON.decode(
      TransmissionRecord<SavedLEDState>.self, from: Array(text.utf8))
    #expect(decoded.text == "é🔦/\u{08}\u{0C}")
    #expect(decoded.saved.trigger == nil)
    #expect(decoded.totalSymbols == nil)
    #expect(decoded.startedAt == 1500)
  }

  @Test(arguments: [
    "", " ", "{", "{\"a\":1,}", "[1,]", "{\"a\" 1}", "{\"a\":1}x", "01", "1.", ".5", "-", "1e",
    "+1", "tru", "nul", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
    "\"a\u{01}b\"", "{\"a\":1,\"a\":2}", "[" + String(repeating: "[", count: 40) + "]",
    "NaN", "Infinity", "{1:2}",
  ])
  func malformedJSONIsRejected(text: String) {
    #expect(throws: RecordJSONError.self) {
      _ = try RecordJSON.decode(Int.self, from: Array(text.utf8))
    }
  }

  @Test func invalidUTF8InAStringIsRejected() {
    #expect(throws: RecordJSONError.self) {
      _ = try RecordJSON.decode(String.self, from: [0x22, 0xFF, 0x22])
    }
  }

  @Test func aValueOfTheWrongTypeIsAnError() throws {
    #expect(throws: DecodingError.self) {
      _ = try RecordJSON.decode(Int.self, from: Array("1.5".utf8))
    }
    #expect(throws: DecodingError.self) {
      _ = try RecordJSON.decode(UInt8.self, from: Array("300".utf8))
    }
    #expect(throws: DecodingError.self) {
      _ = try RecordJSON.decode(Int32.self, from: Array("\"1\"".utf8))
    }
    #expect(throws: DecodingError.self) {
      _ = try RecordJSON.decode(Bool.self, from: Array("1".utf8))
    }
    #expect(throws: DecodingError.self) {
      _ = try RecordJSON.decode([Int].self, from: Array("{}".utf8))
    }
    #expect(try RecordJSON.decode(Int32.self, from: Array("-2147483648".utf8)) == Int32.min)
    #expect(try RecordJSON.decode([Int?].self, from: Array("[1,null]".utf8)) == [1, nil])
  }
}
