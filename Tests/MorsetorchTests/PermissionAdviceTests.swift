import Foundation
import Testing

@testable import MorsetorchTool

/// Exit 77 says the one step that is missing, and names the way to the rule only where the
/// package's rule is not installed.
@Suite("PermissionAdvice")
struct PermissionAdviceTests {
  @Test func withThePackagesRuleOnlyJoiningTheGroupIsLeft() {
    let text = PermissionAdvice(
      group: "leds", isRuleInstalled: true, isListedInGroup: false, hasGroup: false
    ).text
    #expect(text.contains("sudo usermod -aG leds $USER"))
    #expect(text.contains("log in again"))
    #expect(!text.contains("udev"))
    #expect(text.split(separator: "\n").count == 1)
  }

  /// Every distribution's own udev rules give the cameras to group `video`: no rule to add.
  @Test func forACameraJoiningGroupVideoIsTheStep() {
    let text = PermissionAdvice(
      group: "video", isRuleInstalled: false, isListedInGroup: false, hasGroup: false
    ).text
    #expect(text == "Only root and group `video` may use the cameras here: add yourself with "
      + "`sudo usermod -aG video $USER` and log in again.")
  }

  @Test func aMemberWhoseLoginIsOlderIsToldToLogInAgain() {
    let text = PermissionAdvice(
      group: "gpio", isRuleInstalled: true, isListedInGroup: true, hasGroup: false
    ).text
    #expect(text.contains("You are in group `gpio`"))
    #expect(text.contains("newgrp gpio"))
    #expect(!text.contains("usermod"))
  }

  @Test func withoutThePackageTheRuleAndEveryStepAreGiven() {
    let text = PermissionAdvice(
      group: "leds", isRuleInstalled: false, isListedInGroup: false, hasGroup: false
    ).text
    #expect(text.contains(PermissionAdvice.ledRule))
    // Both events: the LED's arrival, and each trigger change (its settings' files appear).
    #expect(text.contains(#"ACTION=="add|change""#))
    #expect(text.contains("usermod -aG leds"))
    #expect(text.contains("--action=add"))
    #expect(text.contains("man morsetorch, PERMISSIONS"))
    #expect(!text.contains("README"))
  }

  @Test func theREADMEGivesTheSameRules() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    #expect(text.contains(PermissionAdvice.ledRule))
    #expect(text.contains(PermissionAdvice.gpioRule))
  }
}
