// swift-tools-version:6.0
import PackageDescription

// One module per part of the design, data flowing one way (README: How the code is laid out):
// DeviceContract -> LEDDriver, GPIODriver, SerialDriver, SoundDriver; MorseCore, DeviceContract -> MorsePlayer ->
// TransmitterControl -> MorsetorchTool -> morsetorch (its main); MorseCore -> MorseReceiving ->
// ReceiveSources -> MorsetorchTool; with LinuxSystem (and its C declarations) the only module that
// imports Glibc besides the tool, and Instants (the one type for a point in time) under all.
let package = Package(
  name: "morsetorch",
  products: [
    .executable(name: "morsetorch", targets: ["morsetorch"]),
    .library(name: "MorseCore", targets: ["MorseCore"]),
  ],
  targets: [
    // A point in time on one clock (the monotonic clock, a virtual clock, a file's or a
    // video's timeline): pure Swift, shared by the system layer, the player and the receiver.
    .target(name: "Instants"),
    // The library other packages may use: no unsafe flags (SwiftPM refuses a dependency
    // that has them).
    .target(name: "MorseCore"),
    // Pure Swift: the sound of Morse (a shaped tone as samples) and the WAV form.
    .target(name: "MorseSound"),
    // Receiving: timed edges (a pin, a file) or frames (a video, a camera) to text; the light
    // finder and the adaptive decoder. Pure Swift, free of I/O, as MorseCore is. Optimised
    // in debug builds too: the light receiver's tests run thousands of made-up frames, also
    // under qemu-aarch64 in CI.
    .target(
      name: "MorseReceiving", dependencies: ["MorseCore", "Instants"],
      swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    // cwdaemon's network protocol, pure: a datagram read as cwdaemon 0.13 reads it, its text
    // keyed through libcw's table, and the session's rules for replies.
    .target(name: "CWDaemonProtocol", dependencies: ["MorseCore"]),
    .target(name: "CLinuxSystem"),
    .target(name: "LinuxSystem", dependencies: ["CLinuxSystem", "Instants"]),
    // What a device is to the rest: a `Torch` (switched, suspended, restored), a
    // `TorchDevice` (saved, claimed, restored from a record) and the `DeviceID` that names it.
    // The drivers know only this.
    .target(name: "DeviceContract", dependencies: ["LinuxSystem", "Instants"]),
    // The player: lazy steps on a serial scheduler at absolute deadlines, the transmitter.
    .target(
      name: "MorsePlayer", dependencies: ["MorseCore", "DeviceContract", "LinuxSystem", "Instants"]),
    .target(name: "LEDDriver", dependencies: ["DeviceContract", "LinuxSystem"]),
    .target(name: "GPIODriver", dependencies: ["DeviceContract", "LinuxSystem", "CLinuxSystem"]),
    .target(name: "SerialDriver", dependencies: ["DeviceContract", "LinuxSystem", "CLinuxSystem"]),
    // The sound: a tone keyed live, through the system's player (aplay) as a child process.
    .target(
      name: "SoundDriver",
      dependencies: ["DeviceContract", "LinuxSystem", "MorseSound", "Instants"]),
    // One sender per device across processes: it keeps records of the player's progress.
    .target(
      name: "TransmitterControl",
      dependencies: ["DeviceContract", "MorsePlayer", "LinuxSystem", "Instants"]),
    // The I/O half of receiving (MorseReceiving is the pure half): each source `receive`
    // reads, one type each (a file of edges, a GPIO line, a serial port's status line, a
    // video, a camera), and what they
    // read with (YUV4MPEG2 video, V4L2 cameras).
    .target(
      name: "ReceiveSources",
      dependencies: [
        "MorseReceiving", "GPIODriver", "SerialDriver", "Instants", "LinuxSystem", "CLinuxSystem",
      ]),
    // The tool's code, in rooms named for what they hold (Send, Receive, Control, Text,
    // Manual; CommandLine, Terminal, Process and Devices shared by them); the
    // shipped executable is its `main` with the kernel's GPIO chips only.
    .target(
      name: "MorsetorchTool",
      dependencies: [
        "MorseCore", "MorseReceiving", "MorseSound", "MorsePlayer", "LEDDriver", "GPIODriver",
        "SerialDriver", "SoundDriver", "TransmitterControl", "ReceiveSources", "LinuxSystem",
        "Instants", "CWDaemonProtocol",
      ]),
    // Packaging: what the Debian package installs besides the executable; Documentation: the
    // README's picture (`receive --trace`, remade and compared by .ci/test-video).
    .executableTarget(
      name: "morsetorch", dependencies: ["MorsetorchTool"],
      exclude: ["Packaging", "Documentation"]),
    .executableTarget(
      name: "morsetorch-benchmark",
      // MorseCorpus: the receiver's corpus (`corpus`), the one the tests judge it on.
      dependencies: [
        "MorseCore", "MorseReceiving", "MorsePlayer", "LEDDriver", "LinuxSystem", "Instants",
        "MorseCorpus",
      ],
      path: "Sources/morsetorch-benchmark",
      // Built with the system's C compiler when the benchmark runs: the C floor and the
      // launcher that measures a sender's own peak memory (not linked with Swift's runtime);
      // video-study: Python scripts run by hand (the README says how).
      exclude: ["C", "README.md", "video-study"]),
    // The receivers' seeded corpus of key edges (ideal, hand keyed, bouncing, through a noisy
    // light) and the character error rate: what the tests and the benchmark both judge a
    // receiver on. Never shipped.
    .target(
      name: "MorseCorpus", dependencies: ["MorseCore", "MorseReceiving", "Instants"],
      swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    // Fakes shared by the test targets: a manual clock, recording doubles, a temporary LED
    // class directory of plain files.
    .target(
      name: "MorseTestSupport",
      dependencies: [
        "MorseCore", "MorseReceiving", "MorseCorpus", "DeviceContract", "MorsePlayer", "GPIODriver",
        "SerialDriver",
        "ReceiveSources", "LinuxSystem", "Instants",
      ],
      path: "Tests/Support",
      swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    // The tool as the process tests run it on simulated GPIO chips (directories of plain
    // files, `SimulatedChips`): never shipped.
    .executableTarget(
      name: "morsetorch-simulated-gpio", dependencies: ["MorsetorchTool", "MorseTestSupport"],
      path: "Tests/SimulatedGPIOTool"),
    // A made-up camera's view of a blinking light, as a YUV4MPEG2 stream: what the CI
    // encodes as H.264 and reads back through ffmpeg. Never shipped.
    .executableTarget(
      name: "morsetorch-synthetic-video",
      dependencies: ["MorseCore", "MorseReceiving", "Instants", "MorseTestSupport"],
      path: "Tests/SyntheticVideoTool"),
    .testTarget(name: "InstantsTests", dependencies: ["Instants"]),
    .testTarget(name: "CWDaemonProtocolTests", dependencies: ["CWDaemonProtocol", "MorseCore"]),
    .testTarget(
      name: "MorseCoreTests", dependencies: ["MorseCore", "MorseCorpus", "MorseTestSupport"]),
    .testTarget(
      name: "MorseReceivingTests",
      dependencies: ["MorseReceiving", "MorseCore", "Instants", "MorseCorpus", "MorseTestSupport"]),
    .testTarget(
      name: "LinuxSystemTests", dependencies: ["LinuxSystem", "Instants", "MorseTestSupport"]),
    .testTarget(
      name: "MorsePlayerTests",
      dependencies: ["MorsePlayer", "DeviceContract", "MorseCore", "Instants", "MorseTestSupport"]),
    .testTarget(
      name: "LEDDriverTests", dependencies: ["LEDDriver", "MorsePlayer", "MorseTestSupport"]),
    .testTarget(
      name: "GPIODriverTests",
      dependencies: ["GPIODriver", "TransmitterControl", "MorsePlayer", "MorseTestSupport"]),
    .testTarget(name: "MorseSoundTests", dependencies: ["MorseSound"]),
    .testTarget(
      name: "SerialDriverTests",
      dependencies: ["SerialDriver", "DeviceContract", "LinuxSystem", "MorseTestSupport"]),
    .testTarget(
      name: "ReceiveSourcesTests",
      dependencies: [
        "ReceiveSources", "MorseReceiving", "GPIODriver", "SerialDriver", "LinuxSystem",
        "Instants", "MorseTestSupport",
      ]),
    .testTarget(
      name: "TransmitterControlTests",
      dependencies: [
        "TransmitterControl", "LEDDriver", "GPIODriver", "MorsePlayer", "MorseTestSupport",
      ]),
    .testTarget(
      name: "MorsetorchTests",
      dependencies: [
        "MorsetorchTool", "morsetorch", "morsetorch-simulated-gpio", "morsetorch-synthetic-video",
        "MorseCore", "MorseReceiving", "MorsePlayer", "Instants",
        "LEDDriver", "GPIODriver", "SerialDriver", "SoundDriver", "TransmitterControl",
        "LinuxSystem",
        "MorseTestSupport",
        "MorseCorpus",
      ]),
  ]
)
