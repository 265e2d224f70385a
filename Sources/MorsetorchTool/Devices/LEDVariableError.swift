import LEDDriver

/// `MORSETORCH_LED` names no LED (or is not an LED name at all): said in terms of the variable,
/// since the user typed no `--led` and may have forgotten the environment holds one.
struct LEDVariableError: Error, CustomStringConvertible {
  /// The name of the environment variable.
  static let variable = "MORSETORCH_LED"

  /// What the LED class directory said about the name.
  let error: LEDError

  var description: String { "\(Self.variable) names no LED: \(error.description)" }
}
