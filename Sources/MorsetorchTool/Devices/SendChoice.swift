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
