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

  /// A new user's first screen (issue 31): how to try the tool with no hardware comes before
  /// how to install it, and Install says there is no release and how to make the package.
  @Test func theReadmeLetsAUserTryTheToolBeforeInstallingIt() throws {
    let readme = try read("README.md")
    let install = try #require(readme.range(of: "\n## Install\n"))
    let firstScreen = readme[..<install.lowerBound]
    for word in ["morsetorch encode", "send --preview", "send --dry-run", "swift build"] {
      #expect(firstScreen.contains(word), "\(word) is not before Install")
    }
    #expect(firstScreen.split(separator: "\n").count <= 40)
    let installText = readme[install.upperBound...].prefix(600)
    #expect(installText.contains("no published release"))
    #expect(installText.contains("Sources/morsetorch/Packaging/build-deb"))
  }

  /// Before: Try it first built in .build, and the package built everything again.
  @Test func tryItFirstBuildsWhatThePackageIsMadeOf() throws {
    let readme = try read("README.md")
    let builder = try read("Sources/morsetorch/Packaging/build-deb")
    let build = try #require(
      builder.split(separator: "\n").first { $0.drop { $0 == " " }.hasPrefix("swift build") })
    let command = String(build.drop { $0 == " " })
    #expect(try codeBlock(holding: command).first == command)
    #expect(readme.contains("Sources/morsetorch/Packaging/build-release"))
    #expect(
      FileManager.default.isExecutableFile(
        atPath: Self.top.appendingPathComponent("Sources/morsetorch/Packaging/build-release").path))
  }

  @Test func theUdevRulesAreTheOnesTheToolAndTheReadmeGive() throws {
    let rules = ruleLines(try read("Sources/morsetorch/Packaging/90-morsetorch.rules"))
    #expect(rules == deviceHomes.compactMap { $0.access.rule })
    // One block of its own, pasted whole into the rules file: nothing else in it.
    #expect(try codeBlock(holding: rules[0]) == rules)
  }

  @Test func theTmpfilesLineIsTheReadmes() throws {
    let lines = ruleLines(try read("Sources/morsetorch/Packaging/morsetorch.tmpfiles"))
    #expect(lines == ["d /run/morsetorch 3770 root leds -"])
    #expect(try codeBlock(holding: lines[0]) == lines)
  }

  /// The lines of the README's code block that holds `line`.
  private func codeBlock(holding line: String) throws -> [String] {
    let blocks = try read("README.md").components(separatedBy: "```").enumerated()
      .filter { $0.offset % 2 == 1 }.map { $0.element }
    let block = try #require(blocks.first { $0.contains(line) }, "no block holds \(line)")
    return block.split(separator: "\n").dropFirst(block.hasPrefix("\n") ? 0 : 1).map(String.init)
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
    // A new source is named here too: the builder's Description is hand-written prose.
    #expect(text.contains("receives Morse from \(SourceOption.phrases)"))
  }
}
