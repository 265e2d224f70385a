extension Duration {
  /// Milliseconds with up to three decimals and no trailing zeros: "100", "92.308".
  public var millisecondsText: String {
    let (seconds, attoseconds) = components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let rounded = (attoseconds / 1_000_000) % 1_000_000 >= 500_000 ? microseconds + 1 : microseconds
    let sign = rounded < 0 ? "-" : ""
    let magnitude = rounded.magnitude
    let whole = magnitude / 1000
    var fraction = String(magnitude % 1000)
    guard fraction != "0" else { return "\(sign)\(whole)" }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(whole).\(fraction)"
  }
}
