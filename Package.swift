// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "morsetorch",
  products: [
    .executable(name: "morsetorch", targets: ["morsetorch"]),
    .library(name: "MorseCore", targets: ["MorseCore"]),
  ],
  targets: [
    .target(name: "MorseCore"),
    .executableTarget(name: "morsetorch", dependencies: ["MorseCore"]),
    .executableTarget(
      name: "morsetorch-benchmark", dependencies: ["MorseCore"],
      path: "Sources/morsetorch-benchmark"),
    // Fakes shared by the test targets: a manual clock, a recording torch, a temporary LED
    // class directory of plain files.
    .target(name: "MorseTestSupport", dependencies: ["MorseCore"], path: "Tests/Support"),
    .testTarget(name: "MorseCoreTests", dependencies: ["MorseCore", "MorseTestSupport"]),
    .testTarget(
      name: "MorsetorchTests", dependencies: ["MorseCore", "MorseTestSupport", "morsetorch"]),
  ]
)
