/// The JSON of the records, written and read here rather than with Foundation's coders:
/// linking Foundation (even FoundationEssentials) for two small files made the executable
/// about 10 MB larger and every process start about 3 MB more resident.
///
/// Writing: objects with sorted keys, one line. Reading: strict RFC 8259, nested at most
/// `depthLimit` deep; the records are untrusted input.
enum RecordJSON: Equatable {
  case null
  case bool(Bool)
  /// A number, as its text (converted exactly when it is read as a type).
  case number(String)
  case string(String)
  case array([RecordJSON])
  case object([String: RecordJSON])

  static let depthLimit = 32

  /// Encodes `value` as one line of JSON.
  static func encode(_ value: some Encodable) throws -> [UInt8] {
    let encoder = RecordEncoder(codingPath: [])
    try value.encode(to: encoder)
    var output: [UInt8] = []
    encoder.storage.value.write(to: &output)
    return output
  }

  /// Decodes a `T` from JSON bytes.
  static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    var parser = Parser(bytes: bytes)
    let value = try parser.parseDocument()
    return try T(from: RecordDecoder(value: value, codingPath: []))
  }

  fileprivate func write(to output: inout [UInt8]) {
    switch self {
    case .null: output += Array("null".utf8)
    case .bool(let value): output += Array((value ? "true" : "false").utf8)
    case .number(let text): output += Array(text.utf8)
    case .string(let text): Self.writeString(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        element.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Self.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        members[key]?.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private static func writeString(_ text: String, to output: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), byte]
      case 0x0A: output += Array("\\n".utf8)
      case 0x09: output += Array("\\t".utf8)
      case 0x0D: output += Array("\\r".utf8)
      case 0..<0x20, 0x7F:
        output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}

/// Why JSON could not be read.
struct RecordJSONError: Error, Equatable {
  let reason: String
}

// MARK: - Reading

private struct Parser {
  let bytes: [UInt8]
  var position = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseDocument() throws(RecordJSONError) -> RecordJSON {
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard position == bytes.count else { throw RecordJSONError(reason: "text after the value") }
    return value
  }

  private mutating func skipWhitespace() {
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
      position += 1
    }
  }

  private mutating func expect(_ literal: String) throws(RecordJSONError) {
    for byte in literal.utf8 {
      guard position < bytes.count, bytes[position] == byte else {
        throw RecordJSONError(reason: "expected \(literal)")
      }
      position += 1
    }
  }

  private mutating func parseValue(depth: Int) throws(RecordJSONError) -> RecordJSON {
    guard depth < RecordJSON.depthLimit else { throw RecordJSONError(reason: "nested too deep") }
    skipWhitespace()
    guard position < bytes.count else { throw RecordJSONError(reason: "unexpected end") }
    switch bytes[position] {
    case UInt8(ascii: "n"):
      try expect("null")
      return .null
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "["):
      position += 1
      var elements: [RecordJSON] = []
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      }
      while true {
        elements.append(try parseValue(depth: depth + 1))
        skipWhitespace()
        guard position < bytes.count else { throw RecordJSONError(reason: "unexpected end") }
        position += 1
        if bytes[position - 1] == UInt8(ascii: "]") { return .array(elements) }
        guard bytes[position - 1] == UInt8(ascii: ",") else {
          throw RecordJSONError(reason: "expected , or ]")
        }
      }
    case UInt8(ascii: "{"):
      position += 1
      var members: [String: RecordJSON] = [:]
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          throw RecordJSONError(reason: "expected a key")
        }
        let key = try parseString()
        skipWhitespace()
        try expect(":")
        guard members[key] == nil else { throw RecordJSONError(reason: "duplicate key \(key)") }
        members[key] = try parseValue(depth: depth + 1)
        skipWhitespace()
        guard position < bytes.count else { throw RecordJSONError(reason: "unexpected end") }
        position += 1
        if bytes[position - 1] == UInt8(ascii: "}") { return .object(members) }
        guard bytes[position - 1] == UInt8(ascii: ",") else {
          throw RecordJSONError(reason: "expected , or }")
        }
      }
    default: return .number(try parseNumber())
    }
  }

  private mutating func parseNumber() throws(RecordJSONError) -> String {
    let start = position
    func digits(_ parser: inout Parser) -> Int {
      let first = parser.position
      while parser.position < parser.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.position])
      {
        parser.position += 1
      }
      return parser.position - first
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    let integerDigits = digits(&self)
    guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
      throw RecordJSONError(reason: "not a number")
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits(&self) > 0 else { throw RecordJSONError(reason: "no digits after .") }
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
    {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits(&self) > 0 else { throw RecordJSONError(reason: "no exponent digits") }
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private mutating func hexDigits() throws(RecordJSONError) -> UInt32 {
    guard position + 4 <= bytes.count else { throw RecordJSONError(reason: "short \\u escape") }
    var value: UInt32 = 0
    for byte in bytes[position..<(position + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw RecordJSONError(reason: "bad \\u escape")
      }
      value = value * 16 + UInt32(digit)
    }
    position += 4
    return value
  }

  private mutating func parseString() throws(RecordJSONError) -> String {
    position += 1  // the opening quote
    var scalars = String.UnicodeScalarView()
    var raw: [UInt8] = []
    func flush() throws(RecordJSONError) {
      guard !raw.isEmpty else { return }
      guard let text = String(validating: raw, as: UTF8.self) else {
        throw RecordJSONError(reason: "invalid UTF-8")
      }
      scalars.append(contentsOf: text.unicodeScalars)
      raw.removeAll(keepingCapacity: true)
    }
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        try flush()
        return String(scalars)
      case 0..<0x20: throw RecordJSONError(reason: "control character in a string")
      case UInt8(ascii: "\\"):
        try flush()
        guard position < bytes.count else { throw RecordJSONError(reason: "unexpected end") }
        let escape = bytes[position]
        position += 1
        let simple: [UInt8: Unicode.Scalar] = [
          UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/",
          UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n",
          UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        if let scalar = simple[escape] {
          scalars.append(scalar)
          continue
        }
        guard escape == UInt8(ascii: "u") else { throw RecordJSONError(reason: "bad escape") }
        var code = try hexDigits()
        if (0xD800..<0xDC00).contains(code) {
          guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
          else { throw RecordJSONError(reason: "lone surrogate") }
          position += 2
          let low = try hexDigits()
          guard (0xDC00..<0xE000).contains(low) else {
            throw RecordJSONError(reason: "lone surrogate")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else {
          throw RecordJSONError(reason: "lone surrogate")
        }
        scalars.append(scalar)
      default: raw.append(byte)
      }
    }
    throw RecordJSONError(reason: "unterminated string")
  }
}

// MARK: - Encoder

/// A value being built; containers share it by reference.
private class Box {
  var value: RecordJSON
  init(_ value: RecordJSON) { self.value = value }
}

private func number(_ value: some Encodable) -> RecordJSON? {
  switch value {
  case let value as Int: return .number(String(value))
  case let value as Int8: return .number(String(value))
  case let value as Int16: return .number(String(value))
  case let value as Int32: return .number(String(value))
  case let value as Int64: return .number(String(value))
  case let value as UInt: return .number(String(value))
  case let value as UInt8: return .number(String(value))
  case let value as UInt16: return .number(String(value))
  case let value as UInt32: return .number(String(value))
  case let value as UInt64: return .number(String(value))
  case let value as Double: return value.isFinite ? .number(String(value)) : nil
  case let value as Float: return value.isFinite ? .number(String(value)) : nil
  default: return nil
  }
}

/// Encodes `value` to a JSON value: primitives directly, anything else through its own
/// `encode(to:)`.
private func encodeValue(_ value: some Encodable, codingPath: [any CodingKey]) throws -> RecordJSON
{
  if let text = value as? String { return .string(text) }
  if let flag = value as? Bool { return .bool(flag) }
  if let number = number(value) { return number }
  if value is Double || value is Float {
    throw EncodingError.invalidValue(
      value, .init(codingPath: codingPath, debugDescription: "not a finite number"))
  }
  let encoder = RecordEncoder(codingPath: codingPath)
  try value.encode(to: encoder)
  return encoder.storage.value
}

/// Encodes into `storage`: a value of its own, or (for a super encoder) one that writes
/// itself into its parent.
private final class RecordEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  let storage: Box

  init(codingPath: [any CodingKey], storage: Box = Box(.null)) {
    self.codingPath = codingPath
    self.storage = storage
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = storage.value {} else { storage.value = .object([:]) }
    return KeyedEncodingContainer(KeyedEncoder<Key>(box: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = storage.value {} else { storage.value = .array([]) }
    return UnkeyedEncoder(box: storage, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleEncoder(box: storage, codingPath: codingPath)
  }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: Box
  let codingPath: [any CodingKey]

  private func set(_ value: RecordJSON, for key: Key) {
    guard case .object(var members) = box.value else { return }
    members[key.stringValue] = value
    box.value = .object(members)
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try encodeValue(value, codingPath: codingPath + [key]), for: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = NestedBox(parent: box, key: key.stringValue, value: .object([:]))
    return KeyedEncodingContainer(
      KeyedEncoder<NestedKey>(box: nested, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = NestedBox(parent: box, key: key.stringValue, value: .array([]))
    return UnkeyedEncoder(box: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    RecordEncoder(
      codingPath: codingPath, storage: NestedBox(parent: box, key: "super", value: .null))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    RecordEncoder(
      codingPath: codingPath + [key],
      storage: NestedBox(parent: box, key: key.stringValue, value: .null))
  }
}

/// A container's value that writes itself into its parent object under `key` on every change.
private final class NestedBox: Box {
  let parent: Box
  let key: String
  init(parent: Box, key: String, value: RecordJSON) {
    self.parent = parent
    self.key = key
    super.init(value)
    store()
  }
  override var value: RecordJSON {
    didSet { store() }
  }
  private func store() {
    guard case .object(var members) = parent.value else { return }
    members[key] = value
    parent.value = .object(members)
  }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
  let box: Box
  let codingPath: [any CodingKey]
  var count: Int {
    guard case .array(let elements) = box.value else { return 0 }
    return elements.count
  }

  private func append(_ value: RecordJSON) {
    guard case .array(var elements) = box.value else { return }
    elements.append(value)
    box.value = .array(elements)
  }

  mutating func encodeNil() throws { append(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    append(try encodeValue(value, codingPath: codingPath + [IndexKey(count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = ElementBox(parent: box, index: count, value: .object([:]))
    return KeyedEncodingContainer(
      KeyedEncoder<NestedKey>(box: nested, codingPath: codingPath + [IndexKey(nested.index)]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ElementBox(parent: box, index: count, value: .array([]))
    return UnkeyedEncoder(box: nested, codingPath: codingPath + [IndexKey(nested.index)])
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = RecordEncoder(codingPath: codingPath + [IndexKey(count)])
    append(.null)
    return encoder
  }
}

/// An array element's value that writes itself into its parent array at `index`.
private final class ElementBox: Box {
  let parent: Box
  let index: Int
  init(parent: Box, index: Int, value: RecordJSON) {
    self.parent = parent
    self.index = index
    super.init(value)
    if case .array(var elements) = parent.value {
      elements.append(value)
      parent.value = .array(elements)
    }
  }
  override var value: RecordJSON {
    didSet {
      guard case .array(var elements) = parent.value, elements.indices.contains(index) else {
        return
      }
      elements[index] = self.value
      parent.value = .array(elements)
    }
  }
}

private struct SingleEncoder: SingleValueEncodingContainer {
  let box: Box
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { box.value = .null }

  mutating func encode<T: Encodable>(_ value: T) throws {
    box.value = try encodeValue(value, codingPath: codingPath)
  }
}

private struct IndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { String(intValue ?? 0) }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { self.intValue = intValue }
}

// MARK: - Decoder

private func mismatch(_ type: Any.Type, _ codingPath: [any CodingKey], _ value: RecordJSON)
  -> DecodingError
{
  .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value)"))
}

/// Decodes a `T` from `value`: primitives directly, anything else through its own
/// `init(from:)`.
private func decodeValue<T: Decodable>(
  _ type: T.Type, from value: RecordJSON, codingPath: [any CodingKey]
) throws -> T {
  if T.self == String.self {
    guard case .string(let text) = value, let result = text as? T else {
      throw mismatch(type, codingPath, value)
    }
    return result
  }
  if T.self == Bool.self {
    guard case .bool(let flag) = value, let result = flag as? T else {
      throw mismatch(type, codingPath, value)
    }
    return result
  }
  if let numeric = T.self as? any LosslessStringConvertible.Type,
    T.self is any Numeric.Type
  {
    guard case .number(let text) = value, let parsed = numeric.init(text), let result = parsed as? T
    else { throw mismatch(type, codingPath, value) }
    if let double = result as? Double, !double.isFinite { throw mismatch(type, codingPath, value) }
    return result
  }
  return try T(from: RecordDecoder(value: value, codingPath: codingPath))
}

private struct RecordDecoder: Decoder {
  let value: RecordJSON
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw mismatch([String: Any].self, codingPath, value)
    }
    return KeyedDecodingContainer(
      KeyedDecoder<Key>(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch([Any].self, codingPath, value)
    }
    return UnkeyedDecoder(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleDecoder(value: value, codingPath: codingPath)
  }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [String: RecordJSON]
  let codingPath: [any CodingKey]
  var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func member(_ key: Key) throws -> RecordJSON {
    guard let member = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "no \(key.stringValue)"))
    }
    return member
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decodeValue(type, from: try member(key), codingPath: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try RecordDecoder(value: try member(key), codingPath: codingPath + [key]).container(
      keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try RecordDecoder(value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    RecordDecoder(value: members["super"] ?? .null, codingPath: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    RecordDecoder(value: try member(key), codingPath: codingPath + [key])
  }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let elements: [RecordJSON]
  let codingPath: [any CodingKey]
  var currentIndex = 0
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  init(elements: [RecordJSON], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  private mutating func next() throws -> RecordJSON {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self, .init(codingPath: codingPath, debugDescription: "no more elements"))
    }
    currentIndex += 1
    return elements[currentIndex - 1]
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let path = codingPath + [IndexKey(currentIndex)]
    return try decodeValue(type, from: try next(), codingPath: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let path = codingPath + [IndexKey(currentIndex)]
    return try RecordDecoder(value: try next(), codingPath: path).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let path = codingPath + [IndexKey(currentIndex)]
    return try RecordDecoder(value: try next(), codingPath: path).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let path = codingPath + [IndexKey(currentIndex)]
    return RecordDecoder(value: try next(), codingPath: path)
  }
}

private struct SingleDecoder: SingleValueDecodingContainer {
  let value: RecordJSON
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { value == .null }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeValue(type, from: value, codingPath: codingPath)
  }
}
