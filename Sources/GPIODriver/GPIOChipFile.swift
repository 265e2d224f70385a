import CLinuxSystem
import LinuxSystem


/// A GPIO chip's character device (`/dev/gpiochipN`), spoken to with the kernel's uAPI v2:
/// what the chip and its lines are, and requests for lines.
public struct GPIOChipFile: ~Copyable, Sendable {
  /// What the kernel says of a chip.
  public struct Info: Sendable, Hashable {
    /// The chip's name (`gpiochip0`).
    public let name: String
    /// Its label (the driver's name for it: `pinctrl-bcm2711`).
    public let label: String
    /// How many lines it has.
    public let lines: Int

    /// A chip with these values.
    public init(name: String, label: String, lines: Int) {
      self.name = name
      self.label = label
      self.lines = lines
    }
  }

  /// What the kernel says of a line.
  public struct LineInfo: Sendable, Hashable {
    /// The line's offset on its chip.
    public let offset: Int
    /// Its name (`GPIO17`), often empty.
    public let name: String
    /// Who requested it, when it is in use.
    public let consumer: String
    /// The uAPI v2 flags (`GPIOLineFlags`).
    public let flags: GPIOLineFlags

    /// A line with these values.
    public init(offset: Int, name: String, consumer: String, flags: GPIOLineFlags) {
      self.offset = offset
      self.name = name
      self.consumer = consumer
      self.flags = flags
    }
  }

  private let file: FileDescriptor
  /// The device's path.
  public let path: String

  /// Opens the chip at `path` (read-only is all the uAPI needs), never waiting in `open`
  /// (a FIFO in its place opens at once); anything but a character device is `ENOTTY`.
  public init(path: String) throws(Errno) {
    // Opened before any property is set: Swift 6.0.3 (Debian trixie's, used for the arm64
    // build) crashes on a throw after a noncopyable struct is partly initialised.
    let file = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    guard try file.status().isCharacterDevice else { throw Errno.inappropriateIOControl }
    self.file = file
    self.path = path
  }

  /// GPIO_GET_CHIPINFO_IOCTL.
  public func info() throws(Errno) -> Info {
    var chip = morse_gpio_chip()
    guard morse_gpio_chip_info(file.rawValue, &chip) == 0 else { throw Errno.current }
    return Info(
      name: Self.text(&chip.name), label: Self.text(&chip.label), lines: Int(chip.lines))
  }

  /// GPIO_V2_GET_LINEINFO_IOCTL for the line at `offset`.
  public func lineInfo(offset: Int) throws(Errno) -> LineInfo {
    var line = morse_gpio_line()
    guard morse_gpio_line_info(file.rawValue, UInt32(offset), &line) == 0 else {
      throw Errno.current
    }
    return LineInfo(
      offset: Int(line.offset), name: Self.text(&line.name), consumer: Self.text(&line.consumer),
      flags: GPIOLineFlags(rawValue: line.flags))
  }

  /// Requests the line at `offset` with `flags`, as `consumer`; an output starts at `initial`
  /// (true: active). `EBUSY` when another consumer has it.
  public func request(
    offset: Int, flags: GPIOLineFlags, consumer: String, initial: Bool = false
  ) throws(Errno) -> GPIOLineRequest {
    let raw = morse_gpio_request(
      file.rawValue, UInt32(offset), consumer, flags.rawValue, initial ? 1 : 0, 0)
    guard raw >= 0 else { throw Errno.current }
    return GPIOLineRequest(FileDescriptor(owning: raw))
  }

  /// A NUL-terminated C array of 32 characters as a string.
  private static func text<Tuple>(_ tuple: inout Tuple) -> String {
    withUnsafeBytes(of: &tuple) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
