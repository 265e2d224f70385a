import DeviceContract
import GPIODriver
import LinuxSystem
import TransmitterControl

/// GPIO lines, as the tool handles them: `--gpio CHIP:LINE`, restored from a record by the
/// chip and offset it keeps, and what their errors mean (`report`).
struct GPIOLineHome: DeviceHome {
  /// The chip's device name (`gpiochip0`) and the line's offset on it.
  let chip: String
  let offset: Int

  static let noun = "GPIO line"
  static let nounPlural = "GPIO lines"
  static let restoredPhrase = "left inactive"
  /// Group `gpio` uses every GPIO chip.
  static let access = DeviceAccess(
    group: "gpio", devices: "GPIO chips", use: "use the GPIO chips",
    rule: #"SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660""#,
    triggerMatch: "--subsystem-match=gpio")

  static let sendOption = SendOption.gpio
  static let sendOnlyOptions = [SendOption.activeLow, .bias]

  static func sendChoice(_ arguments: ParsedArguments<SendOption>) throws -> any SendChoice {
    try GPIOChoice(arguments)
  }

  /// The chips in the GPIO directory, each followed by the colon of CHIP:LINE (removed
  /// again if a space is typed).
  static let completion = DeviceCompletion(
    function: "chips",
    bash: [
      "  local chips",
      "  chips=$(ls -1 \"${MORSETORCH_GPIO_DIR:-/dev}\" 2>/dev/null | sed -n 's/^\\(gpiochip[0-9]*\\)$/\\1:/p')",
      "  _morsetorch_reply \"$chips\"",
      "  compopt -o nospace 2>/dev/null",
    ],
    zsh: [
      "  local -a chips",
      "  chips=(${MORSETORCH_GPIO_DIR:-/dev}/gpiochip*(N:t))",
      "  # CHIP:LINE: the colon follows, as in bash and fish (removed again if a space is typed).",
      "  compadd -S : -a chips",
    ],
    fish: [
      "  set -l directory /dev",
      "  set -q MORSETORCH_GPIO_DIR; and test -n \"$MORSETORCH_GPIO_DIR\"; and set directory $MORSETORCH_GPIO_DIR",
      "  ls $directory 2>/dev/null | string match -r '^gpiochip[0-9]+$' | string replace -r '$' ':'",
    ])

  static let listOption: OptionSpec? = .flag(
    "gpio", help: "list the GPIO chips and their lines instead of the LEDs")

  /// Every chip and line; a chip that cannot be read is reported, and its error decides the
  /// exit status.
  static func list(environment: ProcessEnvironment) -> Int32 {
    let directory = environment.gpioChips
    let (chips, unreadable) = directory.list()
    if chips.isEmpty && unreadable.isEmpty {
      Console.error("no GPIO chips under \(directory.path)")
      return ExitStatus.unavailable
    }
    GPIOTable.lines(for: chips).forEach(Console.output)
    let reports = unreadable.map { failureReport(for: $0) }
    reports.forEach { Console.error($0.message) }
    return reports.first?.status ?? ExitStatus.success
  }

  static let controlOption = OptionSpec.value(
    "gpio", "CHIP:LINE", completion: .devices(.gpioLine), isRepeatable: true,
    help: "only this GPIO line; repeatable")

  static func check(controlWords words: [String]) throws {
    for word in words { _ = try GPIOLineAddress(word) }
  }

  /// The lines `words` name (each chip must be there to say which).
  static func chosen(
    _ words: [String], runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) throws -> [DeviceID] {
    try words.map { word in
      let line = try environment.gpioChips.line(try GPIOLineAddress(word))
      return .gpioLine(chip: line.chipName, offset: line.offset)
    }
  }

  static func naming(controlWords words: [String]) -> String {
    "GPIO " + words.joined(separator: ", ")
  }

  func exists(environment: ProcessEnvironment) -> Bool {
    guard let lines = try? environment.gpioChips.chip(named: chip).info().lines else {
      return false
    }
    return offset < lines
  }

  /// The line the record keeps (only a gpiochipN device of the GPIO directory:
  /// `GPIOChipDirectory.recordedLine`), with the record's polarity.
  func driver(record: TransmissionRecord, environment: ProcessEnvironment) throws
    -> (any TorchDevice)?
  {
    guard let saved = SavedGPIOLine(fields: record.saved) else {
      Console.error(
        ControlNote.corruptRecordIgnored(
          path: DeviceNames.shown(.gpioLine(chip: chip, offset: offset)),
          reason: "its saved state is not a GPIO line's"
        ).message)
      return nil
    }
    guard let line = try environment.gpioChips.recordedLine(chip: saved.chip, offset: saved.offset)
    else { return nil }
    return GPIODevice(line: line, isActiveLow: saved.isActiveLow)
  }

  /// What a GPIO error says, with the way out, and the status to exit with.
  static func report(_ error: GPIOError) -> (message: String, status: Int32) {
    let failureClass: DeviceFailureClass =
      switch error {
      case .invalidAddress: .usage
      case .chipNotFound, .lineNotFound, .notAChip: .notFound
      case .vanished: .vanished
      case .lineBusy: .busy
      case .permissionDenied(let path, let errno): .denied(path: path, errno: errno)
      case .io: .io
      case .notRecordable: .notRecordable
      }
    return report(error.description, as: failureClass)
  }
}

extension GPIOError: DeviceFailure {
  var ioErrno: Errno? { if case .io(_, _, let errno) = self { errno } else { nil } }
  var hasVanished: Bool { if case .vanished = self { true } else { false } }
}
