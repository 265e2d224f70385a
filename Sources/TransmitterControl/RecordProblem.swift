/// Why a state record on disk cannot be used.
public struct RecordProblem: Error, Hashable, CustomStringConvertible {
  /// What is wrong with it.
  public let reason: String
  /// The reason.
  public var description: String { reason }
}
