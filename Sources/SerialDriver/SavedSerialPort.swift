import DeviceContract

/// What a serial port's record keeps: the port, the line keyed and how, and the levels its
/// two driven lines had before morsetorch opened it, so that after a transmitter was killed
/// the next run can put them back.
public struct SavedSerialPort: Sendable, Hashable {
  /// The port's device (`/dev/ttyUSB0`).
  public let port: String
  /// The line keyed (DTR or RTS).
  public let line: SerialLine
  /// Whether active was the dropped level.
  public let isActiveLow: Bool
  /// The levels of DTR and RTS as found; nil until the port was opened (the record written
  /// before the claim knows only the port).
  public let found: SerialLevels?

  public init(port: String, line: SerialLine, isActiveLow: Bool, found: SerialLevels?) {
    self.port = port
    self.line = line
    self.isActiveLow = isActiveLow
    self.found = found
  }

  /// As a record keeps it: `port`, `line`, `active-low`, and `dtr` and `rts` (`up`, `down`)
  /// once found.
  public var fields: SavedFields {
    var fields: [SavedFields.Field] = [
      .init("port", port), .init("line", line.rawValue),
      .init("active-low", isActiveLow ? "yes" : "no"),
    ]
    if let found {
      for output in SerialLine.allCases where output.isOutput {
        fields.append(.init(output.rawValue, found[output] ? "up" : "down"))
      }
    }
    return SavedFields(fields)
  }

  /// The port `fields` describe, checked as `isPlausible` says; nil for anything else.
  public init?(fields: SavedFields) {
    guard fields.fields.count == 3 || fields.fields.count == 5,
      let port = fields.value(of: "port"),
      let line = fields.value(of: "line").flatMap(SerialLine.init(rawValue:)), line.isOutput,
      let activeLow = fields.value(of: "active-low"), activeLow == "yes" || activeLow == "no"
    else { return nil }
    var found: SerialLevels?
    if fields.fields.count == 5 {
      var levels = SerialLevels()
      for output in SerialLine.allCases where output.isOutput {
        switch fields.value(of: output.rawValue) {
        case "up": levels[output] = true
        case "down": levels[output] = false
        default: return nil
        }
      }
      found = levels
    }
    self.init(port: port, line: line, isActiveLow: activeLow == "yes", found: found)
    guard isPlausible else { return nil }
  }

  /// Whether a record read from disk could be one of these: a port right under `/dev`.
  public var isPlausible: Bool {
    port.hasPrefix("/dev/") && DeviceID.isPortName(port.dropFirst("/dev/".count))
  }
}
