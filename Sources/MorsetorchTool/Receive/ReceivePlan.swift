import GPIODriver
import MorseCore
import MorseReceiving
import ReceiveSources
import SerialDriver

/// The options of `receive`.
enum ReceiveOption: CommandOption {
  case gpio, serial, edges, video, camera, region, size, fps, edgesOut, trace, show, activeLow
  case fast
  case bias
  case wpm
  case farnsworth
  case alphabet, timeout
  case help

  // One exhaustive switch, a table: over 60 lines, as tables may be (a case added is asked
  // for here).
  var spec: OptionSpec {
    switch self {
    case .gpio:
      .value(
        "gpio", "CHIP:LINE", completion: .devices(.gpioLine),
        help: "read a GPIO input line (a key, a light sensor)"
      ).detailed("CHIP:LINE as gpiochip0:4 or LABEL:GPIO4.")
    case .serial:
      .value(
        "serial", "PORT:LINE", completion: .devices(.serialPort),
        help: "read a serial port's status line (a key, a sensor)"
      ).detailed("PORT:LINE as ttyUSB0:cts (LINE cts, dsr, dcd or ri).")
    case .edges:
      .value(
        "edges", "FILE", completion: .files,
        help: "read edges from FILE (- for standard input)"
      ).detailed("Lines of SECONDS LEVEL.")
    case .video:
      .value(
        "video", "FILE", completion: .files,
        help: "read a light in a video file (- standard input)"
      ).detailed(
        "Any format ffmpeg decodes (it is run to decode it), or YUV4MPEG2 as it is (the only "
          + "kind read from standard input).")
    case .camera:
      .optionalValue(
        "camera", "DEVICE", completion: .files,
        help: "read a light through a V4L2 camera (/dev/video0)"
      ).detailed("Default: the first that streams.")
    case .region:
      .value(
        "region", "X,Y,W,H",
        help: "with --video or --camera: where the light is, in pixels"
      ).detailed("Default: the spot that blinks.")
    case .size:
      .value(
        "size", "WxH", help: "with --camera: the picture size to ask for"
      ).detailed("Default 640x480.")
    case .fps:
      .value(
        "fps", "N", help: "with --camera: the frames a second to ask for"
      ).detailed("Default 30.")
    case .edgesOut:
      .value(
        "edges-out", "FILE", completion: .files,
        help: "also write the edges seen to FILE, to replay later"
      ).detailed("As --edges reads them (a FIFO needs its reader started first).")
    case .trace:
      .value(
        "trace", "FILE", completion: .files,
        help: "draw what was read as an SVG picture (- stdout)"
      ).detailed(
        "Written at the end, or when stopped; at most 250000 levels (edges twice, frames) are "
          + "drawn, what is left out said. With -, the text read is only in the picture.")
    case .show:
      .flag(
        "show",
        help: "with --video or --camera: a live view on the terminal"
      ).detailed(
        "The picture, the light boxed, its level and the text, what is held back in "
          + "brackets, redrawn in place; standard error must be a terminal.")
    case .fast:
      .flag(
        "fast",
        help: "with --video --show: not at the video's own pace"
      ).detailed("As fast as it can, as a video is always read without --show.")
    case .activeLow:
      .flag(
        "active-low",
        help: "marks are low (a pin, a port) or dark (a light)"
      ).detailed(
        "A key to ground (--gpio), a key that drops the line (--serial); a lamp lit while "
          + "idle, shuttered to send.")
    case .bias:
      .value(
        "bias", "BIAS", completion: GPIOChoice.biasCompletion,
        help: "with --gpio: pull-up, pull-down or disabled"
      ).detailed("A key to ground wants pull-up.")
    case .wpm:
      .value(
        "wpm", "N",
        help: "the speed to expect, \(ReceiverSpeeds.span) (default 15)"
      ).detailed("The receiver follows the sender.")
    case .farnsworth:
      .value(
        "farnsworth", "WPM",
        help: "the overall speed, if the sender stretches the gaps"
      ).detailed("Farnsworth spacing.")
    case .alphabet: .alphabet
    case .timeout:
      .value(
        "timeout", "TIME",
        help: "stop after this long: 30s, 10m, 1h"
      ).detailed("Default: until interrupted or the end.")
    case .help: .help
    }
  }
}

/// The sources `receive` reads from, as a user names them: one option each, what it is in a
/// sentence, and the options that go with it only. The usage line, the requirement messages
/// and the prose that lists the sources are made from this list.
enum SourceOption: CaseIterable {
  case gpio, serial, edges, video, camera

  /// The option that names it.
  var option: ReceiveOption {
    switch self {
    case .gpio: .gpio
    case .serial: .serial
    case .edges: .edges
    case .video: .video
    case .camera: .camera
    }
  }

  /// What it is, in a sentence: "a GPIO pin".
  var phrase: String {
    switch self {
    case .gpio: "a GPIO pin"
    case .serial: "a serial port's status line"
    case .edges: "a file of edges"
    case .video: "a video"
    case .camera: "a camera"
    }
  }

  /// The options that go with it (and with no source that does not list them).
  var takes: [ReceiveOption] {
    switch self {
    case .gpio: [.activeLow, .bias]
    case .serial: [.activeLow]
    case .edges: []
    case .video: [.region, .show, .fast, .activeLow]
    case .camera: [.region, .size, .fps, .show, .activeLow]
    }
  }

  /// How a requirement names it: `--gpio CHIP:LINE`, `--camera` (its value optional).
  var required: String {
    let spec = option.spec
    return spec.isValueOptional ? spec.flag : spec.flag + " " + (spec.valueName ?? "")
  }

  /// The sources, in a sentence: "a GPIO pin, a file of edges, a video or a camera".
  static var phrases: String { OptionWords.listed(allCases.map(\.phrase)) }

  /// The sources in the usage line: `(--gpio CHIP:LINE | … | --camera [DEVICE])`.
  static var usage: String {
    "("
      + allCases.map {
        [$0.option.spec.flag, $0.option.spec.valueName].compactMap { $0 }
          .joined(separator: " ")
      }.joined(separator: " | ") + ")"
  }
}

/// What `receive` was asked to do: where from, at what speed, for how long.
struct ReceivePlan: CommandPlan {
  /// Where the edges come from.
  enum Source {
    /// `--edges FILE`: lines of SECONDS LEVEL (`-`: standard input).
    case edges(path: String)
    /// `--gpio CHIP:LINE`, with `--active-low` and `--bias`.
    case gpio(GPIOLineAddress, isActiveLow: Bool, bias: GPIODevice.Bias?)
    /// `--serial PORT:LINE`, with `--active-low`.
    case serial(SerialPortAddress, isActiveLow: Bool)
    /// `--video FILE`: a video file of any kind ffmpeg decodes, or a YUV4MPEG2 stream (`-`:
    /// standard input), with `--region` and `--active-low`; `paced` (`--show` without
    /// `--fast`): each frame at its own time.
    case video(path: String, light: LightReceiver.Settings, paced: Bool)
    /// `--camera [DEVICE]` (nil: the first that will do), with `--region`, `--active-low`,
    /// `--size`, `--fps`.
    case camera(
      path: String?, light: LightReceiver.Settings, size: (width: Int, height: Int)?, fps: Int?)

    /// The file named, if any (not standard input, a pin or a camera).
    var filePath: String? {
      switch self {
      case .edges(let path), .video(let path, _, _): path == "-" ? nil : path
      case .gpio, .serial, .camera: nil
      }
    }

    /// Where standard input is found as a path, when it is read (`-`): what it is (a file, a
    /// pipe) is asked of it there.
    var standardInput: String? {
      switch self {
      case .edges(let path), .video(let path, _, _): path == "-" ? "/proc/self/fd/0" : nil
      case .gpio, .serial, .camera: nil
      }
    }
  }

  /// `--wpm`, `--farnsworth`, `--alphabet`.
  let settings: MorseReceiver.Settings
  /// `--timeout`: how long to listen at most.
  let timeout: Duration?
  /// `--edges`, `--gpio` or `--video`.
  let source: Source
  /// `--edges-out FILE`: where to write the edges seen, if anywhere.
  let edgesOut: String?
  /// `--trace FILE.svg`: where to draw the reading, if anywhere (`-`: standard output).
  let trace: String?
  /// `--show`: a live view of the reading on the terminal of standard error.
  let show: Bool

  init(_ arguments: ParsedArguments<ReceiveOption>) throws {
    try arguments.checkNoOperands()
    settings = try Self.settings(arguments)
    timeout = try Self.timeout(arguments.value(.timeout))
    edgesOut = arguments.value(.edgesOut)
    trace = arguments.value(.trace)
    show = arguments.has(.show)
    let sources = SourceOption.allCases.filter { arguments.has($0.option) }
    guard let chosen = sources.first else {
      throw UsageError.requiresOption(
        "receive", requirement: OptionWords.listed(SourceOption.allCases.map(\.required)))
    }
    if sources.count > 1 {
      throw UsageError.conflictingOptions(sources[0].option.flag, sources[1].option.flag)
    }
    for option in ReceiveOption.allCases
    where arguments.has(option) && !chosen.takes.contains(option) {
      let takers = SourceOption.allCases.filter { $0.takes.contains(option) }
      guard !takers.isEmpty else { continue }
      throw UsageError.requiresOption(
        option.flag, requirement: OptionWords.listed(takers.map(\.required)))
    }
    var light = LightReceiver.Settings()
    light.region = try Self.region(arguments.value(.region))
    light.marksAreDark = arguments.has(.activeLow)
    switch chosen {
    case .gpio:
      source = .gpio(
        try GPIOLineAddress(arguments.value(.gpio) ?? ""), isActiveLow: arguments.has(.activeLow),
        bias: try GPIOChoice.bias(arguments.value(.bias)))
    case .serial:
      let address = try SerialPortAddress(arguments.value(.serial) ?? "")
      guard let line = address.line, !line.isOutput else {
        throw UsageError.invalidValue(
          option: ReceiveOption.serial.flag, value: address.description,
          expected: "PORT:LINE with LINE one of cts, dsr, dcd or ri (DTR and RTS are driven)")
      }
      source = .serial(address, isActiveLow: arguments.has(.activeLow))
    case .video:
      source = .video(
        path: arguments.value(.video) ?? "-", light: light,
        paced: arguments.has(.show) && !arguments.has(.fast))
    case .camera:
      let fps = try arguments.integer(.fps, expected: "a whole number of frames a second, 1-240")
      if let fps, !(1...240).contains(fps) {
        throw UsageError.invalidValue(
          option: ReceiveOption.fps.flag, value: String(fps),
          expected: "a whole number of frames a second, 1-240")
      }
      source = .camera(
        path: arguments.value(.camera), light: light, size: try Self.size(arguments.value(.size)),
        fps: fps)
    case .edges:
      source = .edges(path: arguments.value(.edges) ?? "-")
    }
  }

  /// Refuses `--show` unless standard error is a terminal (`isErrorTerminal`) whose cursor
  /// can be moved (`term` is not `dumb`): checked before the source is opened.
  func checkShow(isErrorTerminal: Bool, term: String?) throws(UsageError) {
    guard show else { return }
    guard isErrorTerminal else {
      throw .requiresOption(ReceiveOption.show.flag, requirement: "standard error on a terminal")
    }
    if term == "dumb" {
      throw .requiresOption(
        ReceiveOption.show.flag, requirement: "a terminal that can move its cursor (TERM=dumb)")
    }
  }

  /// `--region X,Y,W,H`.
  static func region(_ text: String?) throws(UsageError) -> LightRegion? {
    guard let text else { return nil }
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2],
      let height = numbers[3], let region = LightRegion(x: x, y: y, width: width, height: height)
    else {
      throw .invalidValue(
        option: ReceiveOption.region.flag, value: text,
        expected: "X,Y,W,H in pixels, like 300,200,16,16 (width and height at least 1)")
    }
    return region
  }

  /// `--size WxH`.
  static func size(_ text: String?) throws(UsageError) -> (width: Int, height: Int)? {
    guard let text else { return nil }
    let numbers = text.split(separator: "x", omittingEmptySubsequences: false).map {
      OptionWords.wholeNumber(String($0))
    }
    guard numbers.count == 2, let width = numbers[0], let height = numbers[1],
      (16...8192).contains(width), (16...8192).contains(height)
    else {
      throw .invalidValue(
        option: ReceiveOption.size.flag, value: text,
        expected: "WIDTHxHEIGHT in pixels, like 640x480 (16 to 8192 each)")
    }
    return (width, height)
  }

  /// The receiver's settings: `--wpm`, `--farnsworth`, `--alphabet`.
  private static func settings(_ arguments: ParsedArguments<ReceiveOption>) throws
    -> MorseReceiver.Settings
  {
    var settings = MorseReceiver.Settings()
    if let wpm = try arguments.integer(.wpm) {
      guard ReceiverSpeeds.range.contains(wpm) else {
        throw UsageError.invalidValue(
          option: ReceiveOption.wpm.flag, value: String(wpm), expected: ReceiverSpeeds.expected)
      }
      settings.wordsPerMinute = Double(wpm)
    }
    if let farnsworth = try arguments.integer(.farnsworth) {
      guard ReceiverSpeeds.range.contains(farnsworth) else {
        throw UsageError.invalidValue(
          option: ReceiveOption.farnsworth.flag, value: String(farnsworth),
          expected: ReceiverSpeeds.expected)
      }
      settings.farnsworthWPM = Double(farnsworth)
    }
    settings.alphabet = try DecodeCommand.alphabet(arguments.value(.alphabet))
    return settings
  }

  /// `--timeout TIME`: how long to listen at most.
  private static func timeout(_ text: String?) throws(UsageError) -> Duration? {
    guard let text else { return nil }
    guard let duration = DurationText.parse(text) else {
      throw .invalidValue(
        option: ReceiveOption.timeout.flag, value: text,
        expected: "a time like 500ms, 30s, 1.5s or 10m (up to 24h)")
    }
    return duration
  }
}
