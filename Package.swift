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
    .testTarget(name: "MorseCoreTests", dependencies: ["MorseCore"]),
    .testTarget(name: "MorsetorchTests", dependencies: ["MorseCore", "morsetorch"]),
  ]
)
