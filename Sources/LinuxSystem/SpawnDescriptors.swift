/// Which of this process's descriptors a child gets, under which numbers.
public struct SpawnDescriptors {
  var pairs: [(source: Int32, target: Int32)] = []

  /// None beyond standard input (/dev/null).
  public init() {}

  /// Gives the child `descriptor` as number `target` (1 for standard output, …). The caller
  /// keeps `descriptor` open until the child has been spawned.
  public mutating func give(_ descriptor: borrowing FileDescriptor, as target: Int32) {
    pairs.append((descriptor.rawValue, target))
  }
}
