import Foundation
import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite struct UnitSandboxTests {
  /// `files` (path under the directory: content) in a new directory.
  private func units(_ files: [String: String]) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory("morsetorch-units")
    for (path, content) in files {
      let full = directory.path + "/" + path
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try content.write(toFile: full, atomically: false, encoding: .utf8)
    }
    return directory
  }

  @Test func theTemplateItsDropInsAndTheInstancesAreReadInOrder() throws {
    let etc = try units([
      "b@.service.d/10-ro.conf": "[Service]\nReadOnlyPaths=/srv/a -/srv/b\n",
      "b@x.service.d/20-more.conf": "[Service]\nReadOnlyPaths=\nReadOnlyPaths=+/srv/c\n",
    ])
    let lib = try units([
      "b@.service":
        "[Unit]\nProtectKernelTunables=yes\n[Service]\nProtectSystem=full\n"
        + "ProtectKernelTunables = yes\n",
      // Masked by /etc's file of the same name.
      "b@.service.d/10-ro.conf": "[Service]\nReadOnlyPaths=/sys\n",
    ])
    let sandbox = UnitSandbox(unit: "b@x.service", directories: [etc.path, lib.path])
    #expect(sandbox.protectsKernelTunables)
    #expect(sandbox.protectSystem == "full")
    // The empty assignment reset what came before it.
    #expect(sandbox.readOnlyPaths == ["/srv/c"])
    #expect(
      sandbox.settings(making: "/sys/devices/platform/leds/white:flash")
        == ["ProtectKernelTunables=yes"])
    #expect(sandbox.settings(making: "/srv/c/leds") == ["ReadOnlyPaths=/srv/c"])
    #expect(sandbox.settings(making: "/srv/cc").isEmpty)
    #expect(sandbox.settings(making: "/etc/leds") == ["ProtectSystem=full"])
  }

  @Test func strictLeavesTheKernelsFileSystemsAlone() {
    var sandbox = UnitSandbox()
    sandbox.protectSystem = "strict"
    #expect(sandbox.settings(making: "/sys/class/leds/x").isEmpty)
    #expect(sandbox.settings(making: "/srv/leds/x") == ["ProtectSystem=strict"])
    #expect(UnitSandbox(unit: "none.service", directories: ["/nonexistent"]) == UnitSandbox())
  }
}
