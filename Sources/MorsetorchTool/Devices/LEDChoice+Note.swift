import LEDDriver

extension LEDChoice {
  /// Which LED was chosen from how many, when there were several LEDs; nil when there was
  /// only one.
  var note: String? {
    if candidates.count == 1 {
      guard total > 1 else { return nil }
      return "Using LED \"\(led.name)\", the torch/flash LED among \(total) LEDs; name another "
        + "to use it (see `morsetorch list`)."
    }
    let kind = areTorches ? "torch/flash LEDs" : "LEDs"
    return "Using LED \"\(led.name)\", the first by name of \(candidates.count) \(kind) "
      + "(\(candidates.joined(separator: ", "))); name another to use it "
      + "(see `morsetorch list`)."
  }
}
