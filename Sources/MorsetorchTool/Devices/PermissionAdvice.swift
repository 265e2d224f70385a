import LinuxSystem

/// What a user who may not write an LED or a GPIO chip is told to do: the one step that is
/// missing, as far as this system shows it (the library's errors say only what failed).
struct PermissionAdvice {
  /// The udev rule that lets group `leds` switch every LED and put its trigger's settings
  /// back: every writable file of an LED and one directory below it (power/ and uevent left
  /// alone), at the LED's arrival and at each trigger change.
  static let ledRule =
    #"ACTION=="add|change", SUBSYSTEM=="leds", RUN+="/usr/bin/find /sys%p/ -mindepth 1 "#
    + #"-maxdepth 2 ( -name power -o -name uevent ) -prune -o -type f -perm -200 "#
    + #"-exec chgrp leds {} + -exec chmod g+w {} +""#

  /// The udev rule that lets group `gpio` use every GPIO chip.
  static let gpioRule = #"SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660""#

  /// Where the package's udev rule may be.
  static let packageRulePaths = [
    "/lib/udev/rules.d/90-morsetorch.rules", "/usr/lib/udev/rules.d/90-morsetorch.rules",
    "/etc/udev/rules.d/90-morsetorch.rules",
  ]

  /// The group that may use the devices: `leds` or `gpio`.
  let group: String
  /// Whether the package's rule is installed.
  let isRuleInstalled: Bool
  /// Whether `/etc/group` lists this user in `group`.
  let isListedInGroup: Bool
  /// Whether this process has `group` among its groups.
  let hasGroup: Bool

  /// The advice for `group` on this system, as the files and this process show it.
  static func current(group: String) -> PermissionAdvice {
    let groupID = UserRights.groupID(named: group)
    let listed = groupID.map { UserRights.of(userID: CurrentProcess.realUserID).groupIDs.contains($0) }
    return PermissionAdvice(
      group: group, isRuleInstalled: packageRulePaths.contains(where: FileSystem.exists),
      isListedInGroup: listed ?? false,
      hasGroup: groupID.map(CurrentProcess.groupIDs.contains) ?? false)
  }

  /// One short paragraph: what to do next.
  var text: String {
    let devices =
      switch group {
      case "leds": "switch LEDs"
      case "video": "use the cameras"
      default: "use the GPIO chips"
      }
    if isListedInGroup && !hasGroup {
      return "You are in group `\(group)`, but this login is not yet: log in again (or run "
        + "`newgrp \(group)`)."
    }
    if isRuleInstalled || group == "video" {
      // Cameras: every distribution's udev rules give /dev/video* to group `video`.
      return "Only root and group `\(group)` may \(devices) here: add yourself with "
        + "`sudo usermod -aG \(group) $USER` and log in again."
    }
    let rule = group == "leds" ? Self.ledRule : Self.gpioRule
    let trigger = group == "leds" ? "--action=add --subsystem-match=leds" : "--subsystem-match=gpio"
    return """
      Run it as root, or let group `\(group)` \(devices): install this udev rule as a file in \
      /etc/udev/rules.d/ (man morsetorch, PERMISSIONS):
        \(rule)
      then run `sudo groupadd -f \(group) && sudo usermod -aG \(group) $USER`, apply the rule \
      (`sudo udevadm control --reload && sudo udevadm trigger \(trigger)`) and log in again.
      """
  }
}
