import DeviceContract

/// The state record's file format: lines of `KEY VALUE` that `cat` shows plainly, read back
/// strictly, since a record is input from whoever could write in the runtime directory.
///
///     morsetorch state record 2
///     pid 4242
///     device input3::capslock
///     started 1795465177.25
///     text SOS
///     total 3
///     sent 1
///     line 1
///     saved trigger timer
///     saved brightness 0
///     saved setting delay_on 100
///
/// The first line names the format and its version. Then, once each: `pid`, `device` (its
/// lock name), `started` (seconds since 1970), `text`, `sent` and `line`, and where they
/// apply `total`, `waiting` (the input line waited for), `rounds` and `round`; `member` once
/// per device of a group sent on together; `saved NAME VALUE` once per field of the device's
/// saved state, in order. Values are one line: a backslash is written `\\`, a newline `\n`
/// and any other control character `\xHH`. Anything else — an unknown or repeated key, a
/// number with a sign, a missing final newline — makes the record unusable.
enum RecordFormat {
  /// The first line of this version.
  static let header = "morsetorch state record 2"

  /// The record as text.
  static func text(of record: TransmissionRecord) -> String {
    var lines = [
      header, "pid \(record.pid)", "device " + escaped(record.device.lockName),
      "started \(record.startedAt)", "text " + escaped(record.text),
    ]
    if let total = record.totalSymbols { lines.append("total \(total)") }
    lines += ["sent \(record.sentSymbols)", "line \(record.line)"]
    if let waiting = record.waitingForLine { lines.append("waiting \(waiting)") }
    if let rounds = record.rounds { lines.append("rounds \(rounds)") }
    if let round = record.round { lines.append("round \(round)") }
    for member in record.group ?? [] { lines.append("member " + escaped(member.lockName)) }
    for field in record.saved.fields {
      lines.append("saved \(field.name) " + escaped(field.value))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The record in `bytes`, or why it is unusable.
  static func record(from bytes: [UInt8]) -> Result<TransmissionRecord, RecordProblem> {
    let problem = { (reason: String) in
      Result<TransmissionRecord, RecordProblem>.failure(.init(reason: reason))
    }
    if bytes.first == UInt8(ascii: "{") {
      return problem(
        "it was written by an older morsetorch (JSON), which this one does not read: put the "
          + "device back by hand if it was left claimed, then remove the record")
    }
    guard bytes.last == UInt8(ascii: "\n"), let text = String(validating: bytes, as: UTF8.self)
    else { return problem("it is not a valid record (truncated or corrupt?)") }
    var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(header) else {
      return problem("it is not a morsetorch state record of version 2")
    }
    lines.removeFirst()
    var values: [String: String] = [:]
    var members: [DeviceID] = []
    var saved: [SavedFields.Field] = []
    for line in lines {
      guard let space = line.firstIndex(of: " "),
        let value = unescaped(line[line.index(after: space)...])
      else { return problem("a line of it is not KEY VALUE: \(line.prefix(40))") }
      let key = String(line[..<space])
      switch key {
      case "member":
        guard let member = DeviceID(lockName: value) else { return problem("bad member") }
        members.append(member)
      case "saved":
        guard let split = value.firstIndex(of: " "),
          SavedFields.isName(String(value[..<split]))
        else { return problem("a saved field is not NAME VALUE") }
        saved.append(.init(String(value[..<split]), String(value[value.index(after: split)...])))
      case "pid", "device", "started", "text", "total", "sent", "line", "waiting", "rounds",
        "round":
        guard values.updateValue(value, forKey: key) == nil else {
          return problem("it names \(key) twice")
        }
      default:
        return problem("it has an unknown line \(key.prefix(20).debugDescription)")
      }
    }
    guard let record = record(values, members: members, saved: SavedFields(saved)) else {
      return problem("a value of it is missing or not what morsetorch writes")
    }
    return .success(record)
  }

  private static func record(
    _ values: [String: String], members: [DeviceID], saved: SavedFields
  ) -> TransmissionRecord? {
    guard let pid = number(values["pid"]).flatMap(Int32.init(exactly:)),
      let device = values["device"].flatMap(DeviceID.init(lockName:)),
      let text = values["text"], let startedText = values["started"],
      let started = Double(startedText), started.isFinite, started >= 0,
      startedText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let sent = number(values["sent"]), let line = number(values["line"])
    else { return nil }
    var record = TransmissionRecord(
      pid: pid, device: device, text: text, totalSymbols: nil, saved: saved, startedAt: started)
    record.text = text
    record.sentSymbols = sent
    record.line = line
    for (key, path) in [
      ("total", \TransmissionRecord.totalSymbols), ("waiting", \.waitingForLine),
      ("rounds", \.rounds), ("round", \.round),
    ] {
      guard let value = values[key] else { continue }
      guard let parsed = number(value) else { return nil }
      record[keyPath: path] = parsed
    }
    record.group = members.isEmpty ? nil : members
    return record
  }

  /// A count as morsetorch writes it: 1 to 10 decimal digits, no sign.
  private static func number(_ text: String?) -> Int? {
    guard let text, (1...10).contains(text.utf8.count),
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int(text)
  }

  /// `text` on one line: `\` as `\\`, newline as `\n`, other control characters as `\xHH`.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The text `escaped` made; nil for anything it could not have made.
  static func unescaped(_ text: Substring) -> String? {
    var result = ""
    var rest = text.unicodeScalars[...]
    while let scalar = rest.popFirst() {
      if scalar.value < 0x20 || scalar.value == 0x7F { return nil }
      guard scalar == "\\" else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch rest.popFirst() {
      case "\\": result += "\\"
      case "n": result += "\n"
      case "x":
        let digits = String(String.UnicodeScalarView(rest.prefix(2)))
        guard digits.count == 2, digits.allSatisfy(\.isHexDigit),
          let value = UInt8(digits, radix: 16),
          value < 0x20 || value == 0x7F, value != 0x0A
        else { return nil }
        rest = rest.dropFirst(2)
        result.unicodeScalars.append(Unicode.Scalar(value))
      default: return nil
      }
    }
    return result
  }
}
