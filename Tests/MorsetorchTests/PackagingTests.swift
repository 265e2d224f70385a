import Foundation
import GPIODriver
import LEDDriver
import Testing

@testable import MorsetorchTool

/// The files the Debian package installs agree with what the tool and the README say.
@Suite("Packaging")
struct PackagingTests {
  private static let top = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  private func read(_ path: String) throws -> String {
    try String(contentsOf: Self.top.appendingPathComponent(path), encoding: .utf8)
  }

  private func ruleLines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
  }

  @Test func theUdevRulesAreTheOnesTheToolAndTheReadmeGive() throws {
    let rules = ruleLines(try read("Sources/morsetorch/Packaging/90-morsetorch.rules"))
    #expect(rules == [PermissionAdvice.ledRule, PermissionAdvice.gpioRule])
    let readme = try read("README.md")
    for rule in rules { #expect(readme.contains(rule), "\(rule)") }
  }

  @Test func theTmpfilesLineIsTheReadmes() throws {
    let lines = ruleLines(try read("Sources/morsetorch/Packaging/morsetorch.tmpfiles"))
    #expect(lines == ["d /run/morsetorch 3770 root leds -"])
    #expect(try read("README.md").contains(lines[0]))
  }

  @Test func thePackageVersionIsTheToolsAndTheMaintainerScriptsExitCleanly() throws {
    let builder = try read("Sources/morsetorch/Packaging/build-deb")
    #expect(builder.contains("Sources/MorsetorchTool/CommandLine/Version.swift"))
    for script in ["postinst", "prerm", "postrm"] {
      let text = try read("Sources/morsetorch/Packaging/\(script)")
      #expect(
        text.hasPrefix("#!/bin/sh\n") && text.contains("set -e") && text.hasSuffix("exit 0\n"))
    }
  }

  @Test func thePackageSaysEveryPlaceReceiveReadsFrom() throws {
    let builder = try read("Sources/morsetorch/Packaging/build-deb")
    let control = builder.components(separatedBy: "Description:").dropFirst().first ?? ""
    let text = control.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("receives Morse from a GPIO pin, a file of edges, a video or a camera"))
  }
}
