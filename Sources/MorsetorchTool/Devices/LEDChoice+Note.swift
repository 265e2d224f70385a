import LEDDriver

extension LEDChoice {
  /// Which LED was chosen from how many, when there were several; nil when the choice was
  /// obvious (named, or the only candidate).
  var note: String? {
    guard candidates.count > 1 else { return nil }
    let kind = areTorches ? "torch/flash LEDs" : "LEDs"
    return "Using LED \"\(led.name)\", the first by name of \(candidates.count) \(kind) "
      + "(\(candidates.joined(separator: ", "))); name another to use it "
      + "(see `morsetorch list`)."
  }
}
