import Foundation
import LinuxSystem
import Testing

@testable import MorsetorchTool

/// Exit 77 says the one step that is missing, and names the way to the rule only where the
/// package's rule is not installed.
@Suite("PermissionAdvice")
struct PermissionAdviceTests {
  @Test func withThePackagesRuleOnlyJoiningTheGroupIsLeft() {
    let text = advice("leds", rule: true, listed: false, hasGroup: false)
    #expect(text.contains("sudo usermod -aG leds $USER"))
    #expect(text.contains("log in again"))
    #expect(!text.contains("udev"))
    #expect(text.split(separator: "\n").count == 1)
  }

  /// Every distribution's own udev rules give the cameras to group `video`: no rule to add.
  @Test func forACameraJoiningGroupVideoIsTheStep() {
    let text = advice("video", rule: false, listed: false, hasGroup: false)
    #expect(
      text == "Only root and group `video` may use the cameras here: add yourself with "
        + "`sudo usermod -aG video $USER` and log in again.")
  }

  @Test func aMemberWhoseLoginIsOlderIsToldToLogInAgain() {
    let text = advice("gpio", rule: true, listed: true, hasGroup: false)
    #expect(text.contains("You are in group `gpio`"))
    #expect(text.contains("newgrp gpio"))
    #expect(!text.contains("usermod"))
  }

  @Test func withoutThePackageTheRuleAndEveryStepAreGiven() {
    let text = advice("leds", rule: false, listed: false, hasGroup: false)
    #expect(text.contains(LEDHome.access.rule!))
    // Both events: the LED's arrival, and each trigger change (its settings' files appear).
    #expect(text.contains(#"ACTION=="add|change""#))
    #expect(text.contains("usermod -aG leds"))
    #expect(text.contains("--action=add"))
    #expect(text.contains("man morsetorch, PERMISSIONS"))
    #expect(!text.contains("README"))
  }

  /// (3a of issue 31) In the group and in this login, but the LED's files are not the
  /// group's: the udev rule was not applied, and joining the group again would not help.
  @Test func aMemberWhoseFilesAreNotTheGroupsIsToldToApplyTheRule() {
    let text = advice("leds", rule: true, listed: true, hasGroup: true)
    #expect(text.contains("is not the group's to write yet"))
    #expect(text.contains("sudo udevadm trigger --action=add --subsystem-match=leds"))
    #expect(!text.contains("usermod"))
    #expect(!text.contains("log in again"))
    let withoutRule = advice("gpio", rule: false, listed: true, hasGroup: true)
    #expect(withoutRule.contains(GPIOLineHome.access.rule!))
    #expect(withoutRule.contains("--subsystem-match=gpio"))
    #expect(!withoutRule.contains("usermod"))
  }

  /// A kind's advice is all its own: a kind the advice never heard of (a screen backlight,
  /// group `video`... here `backlight`) gets its rule, its udevadm match and its group at every
  /// step, none of any kind's there is.
  @Test(arguments: [(false, false, false), (true, true, true), (false, true, true)])
  func everyKindIsAdvisedFromItsOwnAccess(rule: Bool, listed: Bool, hasGroup: Bool) {
    let backlight = DeviceAccess(
      group: "backlight", devices: "backlights", use: "dim the screen",
      rule: #"SUBSYSTEM=="backlight", GROUP="backlight", MODE="0664""#,
      triggerMatch: "--subsystem-match=backlight")
    let text = PermissionAdvice(
      access: backlight, path: "/sys/class/backlight/intel_backlight/brightness",
      errno: .permissionDenied, isRuleInstalled: rule,
      isListedInGroup: listed, hasGroup: hasGroup, isGroupsFile: false,
      confinement: .init()
    ).text
    #expect(text.contains("`backlight`"), "\(text)")
    for other in deviceHomes.map({ $0.access }) + [DeviceAccess.cameras] {
      #expect(!text.contains("`\(other.group)`"), "\(text)")
      if let rule = other.rule { #expect(!text.contains(rule), "\(text)") }
      #expect(!text.contains(other.triggerMatch), "\(text)")
    }
    if !rule || hasGroup { #expect(text.contains("--subsystem-match=backlight"), "\(text)") }
  }

  /// Listed in the group but not in this login, and the files not the group's yet: both steps.
  @Test func aStaleLoginAndAnUnappliedRuleAreBothSaid() {
    let text = advice("leds", rule: true, listed: true, hasGroup: false)
    #expect(text.contains("newgrp leds"))
    #expect(text.contains("udevadm trigger"))
    let filesFine = advice("leds", rule: true, listed: true, hasGroup: false, groupsFile: true)
    #expect(!filesFine.contains("udevadm"))
  }

  /// (3b) EROFS is no matter of groups: the mount is named, and under systemd the settings.
  @Test func aReadOnlyFileSystemNamesTheMountNotTheGroup() {
    var facts = PermissionAdvice.ConfinementFacts(isRoot: true, readOnlyMount: "/sys")
    let plain = advice("leds", rule: true, listed: false, hasGroup: false, facts: facts)
    #expect(plain.contains("read-only file system (mounted read-only at /sys)"))
    #expect(plain.contains("mount -o remount,rw /sys"))
    #expect(!plain.contains("usermod"))
    #expect(!plain.contains("ProtectKernelTunables"))
    facts.service = "morsetorch-beacon@input3::capslock.service"
    facts.deviceDirectory = "/sys/devices/platform/i8042/serio0/input/input3/input3::capslock"
    // Settings the unit's files were not found to set: the ones that may, and where to look.
    let unknown = advice("leds", rule: true, listed: false, hasGroup: false, facts: facts)
    #expect(unknown.contains("ProtectKernelTunables=, ProtectSystem= or ReadOnlyPaths="))
    #expect(unknown.contains("systemctl cat morsetorch-beacon@input3::capslock.service"))
    // The LED's own directory, never all of /sys.
    #expect(unknown.contains("`ReadWritePaths=\(facts.deviceDirectory ?? "")`"))
    #expect(!unknown.contains("ReadWritePaths=/sys`"))
    #expect(unknown.contains("systemctl edit morsetorch-beacon@input3::capslock.service"))
    // What the unit sets, and only that.
    facts.sandboxSettings = ["ProtectKernelTunables=yes"]
    let unit = advice("leds", rule: true, listed: false, hasGroup: false, facts: facts)
    #expect(unit.contains("makes it so with ProtectKernelTunables=yes: add"))
    #expect(!unit.contains("ProtectSystem"))
  }

  /// Root refused is never told to join a group: a container, a missing capability, or a
  /// security module.
  @Test func rootIsToldWhatConfinesIt() {
    let container = advice(
      "leds", rule: true, listed: false, hasGroup: false,
      facts: .init(isRoot: true, isInUserNamespace: true))
    #expect(container.contains("user namespace"))
    let capability = advice(
      "leds", rule: true, listed: false, hasGroup: false,
      facts: .init(isRoot: true, overridesFilePermissions: false))
    #expect(capability.contains("without CAP_DAC_OVERRIDE"))
    #expect(capability.contains("SupplementaryGroups=leds"))
    let module = advice(
      "gpio", rule: true, listed: false, hasGroup: false, facts: .init(isRoot: true))
    #expect(module.contains("security module"))
    for text in [container, capability, module] { #expect(!text.contains("usermod")) }
  }

  @Test func theREADMEGivesTheSameRules() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    for rule in deviceHomes.compactMap { $0.access.rule } { #expect(text.contains(rule)) }
  }

  /// Each group's devices, as the tool knows them.
  private static let accesses = [LEDHome.access, GPIOLineHome.access, DeviceAccess.cameras]

  private func advice(
    _ group: String, rule: Bool, listed: Bool, hasGroup: Bool, groupsFile: Bool = false,
    facts: PermissionAdvice.ConfinementFacts = .init()
  ) -> String {
    PermissionAdvice(
      access: Self.accesses.first { $0.group == group }!,
      path: "/sys/class/leds/input3::capslock/brightness",
      errno: facts.readOnlyMount == nil ? .permissionDenied : .readOnlyFileSystem,
      isRuleInstalled: rule, isListedInGroup: listed, hasGroup: hasGroup,
      isGroupsFile: groupsFile, confinement: facts
    ).text
  }
}
