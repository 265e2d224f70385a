import DeviceContract
import MorsePlayer

/// What `send`'s options chose of one kind of device, checked, to be opened once the whole
/// plan is: its home makes it (`DeviceHome.sendChoice`).
protocol SendChoice: Sendable {
  /// The words given to the kind's option (`--led a --led b`), as given; none for the
  /// default kind chosen by itself.
  var words: [String] { get }
  /// The devices to send on, each found and checked before any is reserved (a refused one
  /// leaves none claimed); nil when there is none and nobody named one: the light is shown in
  /// the terminal instead.
  func devices(environment: ProcessEnvironment) throws -> [any TorchDevice]?
  /// The warnings a claim of `torch` (these devices) gives.
  func claimWarnings(_ torch: any Torch) -> [String]
}

extension SendChoice {
  func claimWarnings(_ torch: any Torch) -> [String] { [] }
}

/// The choices of every kind a `send` names (`--led a --serial ttyUSB0`), as one: their
/// devices switch in lockstep, reserved all or none.
struct SendChoices: SendChoice {
  let choices: [any SendChoice]

  init(_ choices: [any SendChoice]) {
    self.choices = choices
  }

  var words: [String] { choices.flatMap(\.words) }

  /// Every kind's devices; nil when the one choice there is has none (the default kind's,
  /// nobody naming one: the preview).
  func devices(environment: ProcessEnvironment) throws -> [any TorchDevice]? {
    let devices = try choices.map { try $0.devices(environment: environment) }
    guard devices.contains(where: { $0 != nil }) else { return nil }
    let all = devices.compactMap { $0 }.flatMap { $0 }
    try DeviceNames.checkLimit(all.count, devices: "devices", option: "--led/--gpio/--serial")
    return all
  }

  func claimWarnings(_ torch: any Torch) -> [String] {
    choices.flatMap { $0.claimWarnings(torch) }
  }
}
