import DeviceContract
import LinuxSystem
import TransmitterControl

/// What the tool knows of one kind of device, in one place: how the user names it and reads
/// of it, whether it is there, and how it is put back from a record a killed sender left.
/// Each kind has a home of its own (`LEDHome`, `GPIOLineHome`), with its errors' statuses and
/// advice beside it; `DeviceID.home` is the one switch from a device to its kind.
protocol DeviceHome {
  /// "LED", "GPIO line".
  static var noun: String { get }
  /// "LEDs", "GPIO lines".
  static var nounPlural: String { get }
  /// What a stopped `send` says it left one as: "restored", "left inactive".
  static var restoredPhrase: String { get }
  /// Who may use the devices, and the udev rule that lets them.
  static var access: DeviceAccess { get }

  /// `send`'s option that names devices of this kind (`--led`), and the options that go
  /// with this kind only (`--brightness`; `--active-low`, `--bias`).
  static var sendOption: SendOption { get }
  static var sendOnlyOptions: [SendOption] { get }
  /// What `send`'s `arguments` choose of this kind (checked: usage errors), when this kind
  /// is the one sent on.
  static func sendChoice(_ arguments: ParsedArguments<SendOption>) throws -> any SendChoice

  /// How a shell completes a device of this kind (the value of its options).
  static var completion: DeviceCompletion { get }

  /// `list`'s option that lists this kind (`--gpio`); nil for the default kind, listed
  /// without one.
  static var listOption: OptionSpec? { get }
  /// `list`: the devices of this kind, as a table, with your access to each; the status to
  /// exit with.
  static func list(environment: ProcessEnvironment) throws -> Int32

  /// `stop` and `status`'s option for devices of this kind (`--led NAME`): only those.
  static var controlOption: OptionSpec { get }
  /// Whether each of `words` (given to `controlOption`) is written as it must be: a usage
  /// error before anything is looked at, if not.
  static func check(controlWords words: [String]) throws
  /// The devices of this kind that `words` (given to `controlOption`) choose for `stop` or
  /// `status`, among what `runtime` knows and what is there.
  static func chosen(
    _ words: [String], runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) throws -> [DeviceID]
  /// `words` given to `controlOption`, as a message names them ("LED capslock").
  static func naming(controlWords words: [String]) -> String

  /// The errors of this kind's driver.
  associatedtype Failure: DeviceFailure
  /// What `error` says, with the way out, and the status to exit with.
  static func report(_ error: Failure) -> (message: String, status: Int32)

  /// Whether the device is there: a lock file that names none (planted, or left by one
  /// unplugged) holds no transmission worth looking at.
  func exists(environment: ProcessEnvironment) -> Bool

  /// The driver that puts the device back from `record` (a killed sender's); nil when it is
  /// not there, or the record does not fit it (said on standard error).
  func driver(record: TransmissionRecord, environment: ProcessEnvironment) throws
    -> (any TorchDevice)?
}

/// How the shells complete a device of one kind: a function of each completion script
/// (`_morsetorch_FUNCTION` in bash and zsh, `__morsetorch_FUNCTION` in fish) that offers the
/// devices there are, in the directory its variable names where set; the body of each.
struct DeviceCompletion: Sendable {
  let function: String
  let bash: [String]
  let zsh: [String]
  let fish: [String]
}

/// An error of a device's driver, as the tool needs to tell it apart.
protocol DeviceFailure: Error {
  /// The errno of a failed read or write, if it is one (a descriptor limit is said as such).
  var ioErrno: Errno? { get }
  /// Whether it says the device is gone (nothing to restore either).
  var hasVanished: Bool { get }
}

/// What a driver's error comes to, as the tool reports it: the drivers' error families differ
/// in their cases, not in what each case means to the user.
enum DeviceFailureClass {
  /// Words that name no device (a usage error).
  case usage
  /// No such device, or nothing there that is one: `list` shows what there is.
  case notFound
  /// The device went away.
  case vanished
  /// Another program holds it.
  case busy
  /// The user may not use it: the permission advice.
  case denied(path: String, errno: Errno)
  /// A read or write failed.
  case io
  /// A state record names something that is no device of the kind.
  case notRecordable
}

extension DeviceHome {
  /// The message and status of an error of `failureClass` that says `description`.
  static func report(_ description: String, as failureClass: DeviceFailureClass)
    -> (message: String, status: Int32)
  {
    switch failureClass {
    case .usage: return (description, ExitStatus.usage)
    case .notFound:
      let list = ["morsetorch", "list", listOption?.flag].compactMap { $0 }.joined(separator: " ")
      return (description + " Run `\(list)` for details.", ExitStatus.unavailable)
    case .vanished: return (description, ExitStatus.unavailable)
    case .busy: return (description, ExitStatus.temporaryFailure)
    case .denied(let path, let errno):
      return PermissionAdvice.report(description, access, path: path, errno: errno)
    case .io: return (description, ExitStatus.ioError)
    case .notRecordable: return (description, ExitStatus.dataError)
    }
  }

  /// What an error of this kind's driver says, with the way out, and the status to exit
  /// with; nil for an error of another kind (`failureReport` asks each home).
  static func report(ifOwn error: any Error) -> (message: String, status: Int32)? {
    (error as? Failure).map(report)
  }

  /// The errno of a failed read or write of this kind's driver, if `error` is one.
  static func ioErrno(of error: any Error) -> Errno? { (error as? Failure)?.ioErrno }

  /// Whether `error` says a device of this kind is gone.
  static func hasVanished(_ error: any Error) -> Bool { (error as? Failure)?.hasVanished ?? false }
}

/// A kind of device, as a value: what the options, the plans and the selections of
/// `stop` and `status` are made per kind from. Its home holds the rest; a new case is a new
/// home (the compiler asks for it here, and for all of it there).
enum DeviceKind: CaseIterable, Hashable, Sendable {
  case led, gpioLine, serialPort, sound

  /// What `send` sends on when no kind's option names a device.
  static let `default` = DeviceKind.led

  /// The home of this kind.
  var home: any DeviceHome.Type {
    switch self {
    case .led: LEDHome.self
    case .gpioLine: GPIOLineHome.self
    case .serialPort: SerialPortHome.self
    case .sound: SoundHome.self
    }
  }
}

/// Every kind's home, in the order the manual and `list` name them.
var deviceHomes: [any DeviceHome.Type] { DeviceKind.allCases.map { $0.home } }

extension DeviceID {
  /// The home of this device's kind: the one place from a kind to what the tool does with
  /// it. A new case of `DeviceID` is a new home here.
  var home: any DeviceHome {
    switch self {
    case .led(let name): LEDHome(name: name)
    case .gpioLine(let chip, let offset): GPIOLineHome(chip: chip, offset: offset)
    case .serialPort(let name): SerialPortHome(name: name)
    case .sound(let name): SoundHome(name: name)
    }
  }

  /// This device's kind.
  var kind: DeviceKind {
    switch self {
    case .led: .led
    case .gpioLine: .gpioLine
    case .serialPort: .serialPort
    case .sound: .sound
    }
  }

  /// The kind's noun, "LED" or "GPIO line", plural for `count` over one.
  func noun(count: Int = 1) -> String {
    count == 1 ? kind.home.noun : kind.home.nounPlural
  }
}
