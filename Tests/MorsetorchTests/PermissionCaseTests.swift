import Foundation
import Glibc
import MorseTestSupport
import Testing

/// Each reason a send may not write the LED gets its own advice (issue 31, 3): real processes
/// in a mount namespace of their own, where `/etc/group` has `leds` (gid 65533) and the member
/// is `nobody`.
@Suite(.enabled(if: PrivateMounts.areAvailable, PrivateMounts.requirement))
struct PermissionCaseTests {
  private static let led = "input3::capslock"

  /// `script` run with $SEND the send of one letter on the shared LED (whose files are
  /// `owner`:`group` with `mode`), `/etc/group` having `groupLine`; output, then "status N".
  private func run(
    _ script: String, groupLine: String = "leds:x:65533:\n", owner: UInt32 = 0,
    group: UInt32 = 65_533, mode: mode_t = 0o664, environment: [String: String] = [:]
  ) throws -> (said: String, brightness: String) {
    let (fixture, runtime) = try SharedLED.make()
    let device = fixture.devicePath(of: Self.led)
    for attribute in ["brightness", "trigger"] {
      chown(device + "/" + attribute, owner, group)
      chmod(device + "/" + attribute, mode)
    }
    let said = try PrivateMounts.run(
      script, groupLines: groupLine,
      environment: [
        "MORSETORCH_LEDS_DIR": fixture.ledsPath, "MORSETORCH_RUNTIME_DIR": runtime,
        "SEND": "$MT send --unit 1 --led \(Self.led) E", "LEDS": fixture.root,
      ].merging(environment) { $1 })
    return (said, try fixture.read("brightness", of: Self.led))
  }

  @Test func aUserNotInTheGroupIsToldToJoinIt() throws {
    let (said, brightness) = try run("$MEMBER sh -c \"$SEND\"; echo status $?")
    #expect(said.contains("status 77"), "\(said)")
    #expect(said.contains("usermod -aG leds"), "\(said)")
    #expect(!said.contains("newgrp"), "\(said)")
    #expect(brightness == "0\n")
  }

  @Test func aMemberWhoseLoginPredatesTheGroupIsToldToLogInAgain() throws {
    let (said, _) = try run(
      "$MEMBER sh -c \"$SEND\"; echo status $?", groupLine: "leds:x:65533:nobody\n")
    #expect(said.contains("status 77"), "\(said)")
    #expect(said.contains("this login is not yet"), "\(said)")
    #expect(said.contains("newgrp leds"), "\(said)")
    #expect(!said.contains("usermod"), "\(said)")
  }

  /// Before: told to join the group they are in. The files are root's: the udev rule was
  /// never applied to this LED.
  @Test func aMemberWhoseLEDIsNotTheGroupsIsToldToApplyTheRule() throws {
    let (said, _) = try run(
      "setpriv --reuid=65534 --regid=65534 --groups=65533 sh -c \"$SEND\"; echo status $?",
      groupLine: "leds:x:65533:nobody\n", group: 0, mode: 0o644)
    #expect(said.contains("status 77"), "\(said)")
    #expect(said.contains("is not the group's to write yet"), "\(said)")
    #expect(said.contains("udevadm trigger --action=add --subsystem-match=leds"), "\(said)")
    #expect(!said.contains("usermod"), "\(said)")
    #expect(!said.contains("log in again"), "\(said)")
  }

  /// Before: "Permission denied (EACCES)" and `usermod` advice, to root.
  @Test func rootOnAReadOnlyMountIsToldWhichMountAndWhy() throws {
    let readOnly = "mount --bind \"$LEDS\" \"$LEDS\" && mount -o remount,bind,ro \"$LEDS\" && "
    let (said, brightness) = try run(readOnly + "sh -c \"$SEND\"; echo status $?")
    #expect(said.contains("Read-only file system (EROFS)"), "\(said)")
    #expect(said.contains("mounted read-only at /"), "\(said)")
    #expect(said.contains("mount -o remount,rw"), "\(said)")
    #expect(said.contains("status 77"), "\(said)")
    #expect(!said.contains("EACCES"), "\(said)")
    #expect(!said.contains("usermod"), "\(said)")
    #expect(brightness == "0\n")
    // Under a unit whose files cannot be found: the settings that may do it, and where to
    // look.
    let units = try TemporaryDirectory("morsetorch-units")
    let (unit, _) = try run(
      readOnly + "sh -c \"$SEND\"; echo status $?",
      environment: [
        "MORSETORCH_SERVICE": "morsetorch-beacon@x.service", "SYSTEMD_UNIT_PATH": units.path,
      ])
    #expect(unit.contains("The systemd unit morsetorch-beacon@x.service makes it so"), "\(unit)")
    #expect(unit.contains("systemctl cat morsetorch-beacon@x.service` shows which"), "\(unit)")
    // Before: `ReadWritePaths=/`, the whole root file system.
    #expect(unit.contains("`ReadWritePaths=/tmp/"), "\(unit)")
    #expect(unit.contains("/devices/platform/leds/input3::capslock`"), "\(unit)")
  }

  /// Before: every setting that might do it was named, the unit's or not.
  @Test func aUnitsReadOnlyPathsAreNamedAndOnlyThose() throws {
    let units = try TemporaryDirectory("morsetorch-units")
    try FileManager.default.createDirectory(
      atPath: units.path + "/morsetorch-beacon@.service.d", withIntermediateDirectories: true)
    try "[Service]\nProtectSystem=strict\nReadWritePaths=-/run/morsetorch\n".write(
      toFile: units.path + "/morsetorch-beacon@.service", atomically: false, encoding: .utf8)
    try "[Service]\nReadOnlyPaths=-$LEDS\n".write(
      toFile: units.path + "/morsetorch-beacon@.service.d/leds.conf", atomically: false,
      encoding: .utf8)
    let (said, _) = try run(
      "sed -i \"s|\\$LEDS|$LEDS|\" \"$UNITS/morsetorch-beacon@.service.d/leds.conf\" && "
        + "mount --bind \"$LEDS\" \"$LEDS\" && mount -o remount,bind,ro \"$LEDS\" && "
        + "sh -c \"$SEND\"; echo status $?",
      environment: [
        "MORSETORCH_SERVICE": "morsetorch-beacon@x.service", "SYSTEMD_UNIT_PATH": units.path,
        "UNITS": units.path,
      ])
    #expect(said.contains("status 77"), "\(said)")
    // ProtectSystem=strict makes /tmp read-only too, on a real system.
    #expect(said.contains("with ProtectSystem=strict and ReadOnlyPaths=/tmp/"), "\(said)")
    #expect(!said.contains("ProtectKernelTunables"), "\(said)")
  }

  /// Root without CAP_DAC_OVERRIDE (a unit's CapabilityBoundingSet=) on a file that is not
  /// root's: the capability or the group, never `usermod`.
  @Test func rootWithoutTheCapabilityIsToldSo() throws {
    let (said, _) = try run(
      "setpriv --bounding-set=-dac_override sh -c \"$SEND\"; echo status $?",
      owner: 65_534, group: 65_534, mode: 0o644)
    #expect(said.contains("status 77"), "\(said)")
    #expect(said.contains("without CAP_DAC_OVERRIDE"), "\(said)")
    #expect(!said.contains("usermod"), "\(said)")
  }
}
