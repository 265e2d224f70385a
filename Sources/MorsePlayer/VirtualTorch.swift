import DeviceContract
/// A torch that is not there, for a dry run: switching it does nothing.
public final class VirtualTorch: Torch {
  /// A torch that touches nothing.
  public init() {}
  /// Does nothing.
  public func set(_ isOn: Bool) {}
  /// Does nothing.
  public func restore() {}
}
