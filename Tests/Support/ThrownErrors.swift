import MorseCore

/// The `MorseError` that `body` throws, or nil if it throws nothing (or something else).
public func morseError(_ body: () throws -> Void) -> MorseError? {
  do {
    try body()
    return nil
  } catch {
    return error as? MorseError
  }
}
