import LEDDriver

extension LEDError {
  /// Whether the error means there is no LED at all to use.
  var isNoLED: Bool {
    switch self {
    case .classDirectoryMissing, .noLEDs: true
    default: false
    }
  }
}
