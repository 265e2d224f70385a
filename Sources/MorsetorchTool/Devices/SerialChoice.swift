import DeviceContract
import MorsePlayer
import SerialDriver

/// `--serial PORT[:LINE]` (repeatable), with `--active-low`: the serial ports' lines to key
/// instead of LEDs.
struct SerialChoice: SendChoice {
  /// The ports as written.
  let addresses: [SerialPortAddress]
  /// Whether active is the dropped level.
  let isActiveLow: Bool

  var words: [String] { addresses.map(\.description) }

  /// The ports `--serial` names, with `--active-low`; usage errors for too many, words that
  /// are no port, or a line the port reads.
  init(_ arguments: ParsedArguments<SendOption>) throws {
    let texts = arguments.all(.serial)
    try DeviceNames.checkLimit(
      texts.count, devices: "serial ports", option: SendOption.serial.flag)
    addresses = try texts.map { text in
      let address = try SerialPortAddress(text)
      if let line = address.line, !line.isOutput {
        throw SerialError.notAnOutput(line, path: address.path)
      }
      return address
    }
    isActiveLow = arguments.has(.activeLow)
  }

  /// The ports, each found (a stable name followed to its device).
  func devices(environment: ProcessEnvironment) throws -> [any TorchDevice]? {
    let directory = environment.serialPorts
    return try addresses.map { address in
      SerialDevice(
        port: try directory.port(address), line: address.line ?? SerialLine.keyedByDefault,
        isActiveLow: isActiveLow, directory: directory)
    }
  }

  /// A port whose speed is not 0 had DTR and RTS raised by its open, until they were put
  /// back: said, with the way to stop it.
  func claimWarnings(_ torch: any Torch) -> [String] {
    let members = (torch as? TorchGroup)?.members ?? [torch]
    return members.compactMap { $0 as? SerialTorch }.filter(\.openRaisedLines).map { torch in
      "warning: opening \(torch.path) raised DTR and RTS for a moment (the kernel does so "
        + "unless the port's speed is 0); to stop it, set its speed to 0 once: "
        + "`stty -F \(torch.path) 0` (man morsetorch, SERIAL)"
    }
  }
}
