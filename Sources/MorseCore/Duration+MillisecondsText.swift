extension Duration {
  /// Milliseconds with up to three decimals and no trailing zeros: "100", "92.308".
  public var millisecondsText: String {
    var bytes: [UInt8] = []
    appendMillisecondsText(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `millisecondsText` as ASCII bytes (for output made in bulk: a dry run's
  /// millions of lines).
  public func appendMillisecondsText(to bytes: inout [UInt8]) {
    let (seconds, attoseconds) = components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let rounded = (attoseconds / 1_000_000) % 1_000_000 >= 500_000 ? microseconds + 1 : microseconds
    if rounded < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = rounded.magnitude
    Self.appendDecimal(magnitude / 1000, to: &bytes)
    var fraction = magnitude % 1000
    guard fraction != 0 else { return }
    bytes.append(UInt8(ascii: "."))
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    // The fraction's leading zeros, then its digits: 0.05 is "05" after the point.
    var divisor: UInt64 = 1
    for _ in 1..<digits { divisor *= 10 }
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
      divisor /= 10
    }
  }

  private static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    var divisor: UInt64 = 1
    while value / divisor >= 10 { divisor *= 10 }
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    }
  }
}
