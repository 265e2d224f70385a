import LinuxSystem

/// Something other than a kernel character device that a GPIO directory may take for a chip:
/// only tests inject one (a directory of plain files standing in for a chip), so the shipped
/// tool opens nothing but the kernel's chips.
public protocol GPIOChipStandIn: Sendable {
  /// The chip at `path` (whose entry is `status`, never a character device), or nil when this
  /// is not one.
  func chip(at path: String, status: FileStatus) -> (any GPIOChip)?
}
