import DeviceContract
import LinuxSystem
import MorseSound
import SoundDriver
import TransmitterControl

/// Sound devices, as the tool handles them: `--sound [DEVICE]` plays the Morse as a tone
/// through the system's player; nothing to restore from a record; what their errors mean.
struct SoundHome: DeviceHome {
  /// The device as the player names it.
  let name: String

  static let noun = "sound device"
  static let nounPlural = "sound devices"
  static let restoredPhrase = "silenced"
  /// Debian gives the sound devices to group `audio` (a desktop's session also has them).
  static let access = DeviceAccess(
    group: "audio", devices: "sound devices", use: "play sound", rule: nil,
    triggerMatch: "--subsystem-match=sound")

  static let sendOption = SendOption.sound
  static let sendOnlyOptions: [SendOption] = []

  static func sendChoice(_ arguments: ParsedArguments<SendOption>) throws -> any SendChoice {
    try SoundChoice(arguments)
  }

  /// The devices the player lists (`aplay -L`: a name a line, unindented).
  static let completion = DeviceCompletion(
    function: "sound_devices",
    bash: [
      "  _morsetorch_reply \"$(aplay -L 2>/dev/null | grep -v '^[[:space:]]')\"",
      "  compopt -o nospace 2>/dev/null; compopt +o nospace 2>/dev/null",
    ],
    zsh: [
      "  local -a devices",
      "  devices=(${(f)\"$(aplay -L 2>/dev/null | grep -v '^[[:space:]]')\"})",
      "  compadd -a devices",
    ],
    fish: [
      "  aplay -L 2>/dev/null | string match -rv '^\\s'"
    ])

  static let listOption: OptionSpec? = .flag(
    "sound", help: "list the sound cards instead of the LEDs")

  /// The kernel's sound cards (`/proc/asound/cards`), each as `plughw:CARD=ID`, with your
  /// access, and whether the player is there.
  static func list(environment: ProcessEnvironment) -> Int32 {
    let player = SoundPlayer.find(onPath: environment["PATH"] ?? "/usr/bin:/bin")
    let cards = SoundCards.read(environment.soundCards)
    if player == nil {
      Console.error(SoundError.noPlayer(program: SoundPlayer.program).description)
    }
    guard !cards.isEmpty else {
      Console.error("no sound cards (\(environment.soundCards) lists none)")
      return ExitStatus.unavailable
    }
    let rows = cards.map { card in
      [
        "plughw:CARD=\(card.id)", card.name,
        FileSystem.isWritable(card.control) ? "yes" : "none (group \(access.group))",
      ]
    }
    TextTable.aligned([["DEVICE", "CARD", "ACCESS"]] + rows).forEach(Console.output)
    return player == nil ? ExitStatus.unavailable : ExitStatus.success
  }

  /// Without DEVICE, the system's own (`default`), as `send --sound` plays on.
  static let controlOption = OptionSpec.optionalValue(
    "sound", "DEVICE", completion: .devices(.sound),
    help: "only this sound device (default: the system's)")

  static func check(controlWords words: [String]) throws {
    for word in words { _ = try SoundChoice.name(word) }
  }

  static func chosen(
    _ words: [String], runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) throws -> [DeviceID] {
    try words.map { .sound(try SoundChoice.name($0)) }
  }

  static func naming(controlWords words: [String]) -> String {
    "sound device " + words.map { (try? SoundChoice.name($0)) ?? $0 }.joined(separator: ", ")
  }

  /// Whether it is there cannot be told without playing: a record's device is taken as there.
  func exists(environment: ProcessEnvironment) -> Bool { true }

  /// The device a record names; restoring it does nothing (its player ended with its sender).
  func driver(record: TransmissionRecord, environment: ProcessEnvironment) throws
    -> (any TorchDevice)?
  {
    SoundDevice(
      name: name, settings: ToneSynthesizer.Settings(), player: SoundPlayer.program,
      environment: environment.variables)
  }

  /// What a sound error says, with the way out, and the status to exit with.
  static func report(_ error: SoundError) -> (message: String, status: Int32) {
    let failureClass: DeviceFailureClass =
      switch error {
      case .noPlayer, .playerEnded: .vanished
      case .playerRefused:
        switch error.refusal {
        case .noDevice: .notFound
        case .busy: .busy
        case .denied: .denied(path: "/dev/snd", errno: .permissionDenied)
        case .other: .io
        }
      case .cannotStart, .playerSilent: .io
      }
    return report(error.description, as: failureClass)
  }
}

extension SoundError: DeviceFailure {
  var ioErrno: Errno? { if case .cannotStart(_, let errno) = self { errno } else { nil } }
  var hasVanished: Bool { if case .playerEnded = self { true } else { false } }
}

/// The kernel's sound cards, as `/proc/asound/cards` lists them.
enum SoundCards {
  struct Card {
    /// Its number, its id (`Headphones`), its name, and its control device.
    let number: Int
    let id: String
    let name: String
    var control: String { "/dev/snd/controlC\(number)" }
  }

  /// The cards `path` lists: ` 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones`.
  static func read(_ path: String) -> [Card] {
    let text = String(decoding: (try? FileSystem.readFile(path)) ?? [], as: UTF8.self)
    return text.split(separator: "\n").compactMap { line in
      guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"),
        open < close, let number = Int(line[..<open].trimmingSpaces)
      else { return nil }
      let id = line[line.index(after: open)..<close].trimmingSpaces
      // `]: DRIVER - NAME`: the name after the first " - ".
      let rest = String(line[line.index(after: close)...])
      let name = rest.ranges(of: " - ").first.map { rest[$0.upperBound...] } ?? rest[...]
      return Card(number: number, id: String(id), name: String(name.trimmingSpaces))
    }
  }
}

extension Substring {
  /// Without the spaces at either end.
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return text
  }
}
