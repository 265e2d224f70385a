/// Who may use one kind of device, and how a system is set up to let them: what the
/// permission advice (`PermissionAdvice`) and the manual's PERMISSIONS say of the kind.
struct DeviceAccess: Sendable, Hashable {
  /// The group whose members may use the devices: `leds`, `gpio`, `video`.
  let group: String
  /// The devices, as a plural: "LEDs", "GPIO chips", "cameras".
  let devices: String
  /// What the group may do, after "may": "switch LEDs".
  let use: String
  /// The udev rule that gives the group the devices; nil where every distribution's own
  /// rules do already (cameras to `video`).
  let rule: String?
  /// What `udevadm trigger` is given to apply the rule to the devices already there.
  let triggerMatch: String

  /// The commands that apply the udev rule to the devices already there.
  var applyCommand: String {
    "`sudo udevadm control --reload && sudo udevadm trigger \(triggerMatch)`"
  }
}

extension DeviceAccess {
  /// The cameras `receive --camera` reads: every distribution's own udev rules give them to
  /// group `video`.
  static let cameras = DeviceAccess(
    group: "video", devices: "cameras", use: "use the cameras", rule: nil,
    triggerMatch: "--subsystem-match=video4linux")
}
