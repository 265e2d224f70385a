import LinuxSystem

/// What a user who may not write an LED or a GPIO chip is told to do: the one step that is
/// missing, as far as this system shows it (the library's errors say only what failed).
struct PermissionAdvice {
  /// Where the package's udev rule may be.
  static let packageRulePaths = [
    "/lib/udev/rules.d/90-morsetorch.rules", "/usr/lib/udev/rules.d/90-morsetorch.rules",
    "/etc/udev/rules.d/90-morsetorch.rules",
  ]

  /// Who may use the kind of device refused, and the rule that lets them.
  let access: DeviceAccess
  /// The group that may use the devices: `leds`, `gpio`, `video`.
  var group: String { access.group }
  /// The file that was refused, and why (`EACCES`, `EPERM`, `EROFS`).
  let path: String
  let errno: Errno
  /// Whether the package's rule is installed.
  let isRuleInstalled: Bool
  /// Whether `/etc/group` lists this user in `group`.
  let isListedInGroup: Bool
  /// Whether this process has `group` among its groups.
  let hasGroup: Bool
  /// Whether `path` belongs to `group` and the group may write it (what the udev rule does).
  let isGroupsFile: Bool
  /// What confines this process, as far as it matters here.
  let confinement: ConfinementFacts

  /// Why a write may be refused besides the user's rights.
  struct ConfinementFacts {
    /// Whether this process runs as root.
    var isRoot = false
    /// Whether root here is a user namespace's (a rootless container's).
    var isInUserNamespace = false
    /// Whether root here has CAP_DAC_OVERRIDE.
    var overridesFilePermissions = true
    /// The mount point of `path`'s read-only mount (for `EROFS`).
    var readOnlyMount: String?
    /// The systemd unit this runs in (`MORSETORCH_SERVICE`, or "this service" under systemd).
    var service: String?
    /// The unit's settings that make `path` read-only, as its files write them (empty where
    /// none was found).
    var sandboxSettings: [String] = []
    /// The directory of the device's own files, resolved (its class link followed): what a
    /// unit's `ReadWritePaths=` should name.
    var deviceDirectory: String?
  }

  /// The advice for the devices of `access` on this system about `path` refused with
  /// `errno`, as the files, /proc and this process show it.
  static func current(_ access: DeviceAccess, path: String, errno: Errno) -> PermissionAdvice {
    let group = access.group
    let groupID = UserRights.groupID(named: group)
    let listed = groupID.map {
      UserRights.of(userID: CurrentProcess.realUserID).groupIDs.contains($0)
    }
    let status = try? FileSystem.status(path)
    let environment = CurrentProcess.environmentVariables()
    let root = CurrentProcess.effectiveUserID == 0
    let service =
      environment[SendCommand.serviceVariable] ?? ProcessFacts.serviceUnit(CurrentProcess.id)
    let isReadOnly = errno == .readOnlyFileSystem
    let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    let deviceDirectory = (try? FileSystem.resolvedPath(directory)) ?? directory
    let sandbox =
      isReadOnly
      ? service.map {
        UnitSandbox(unit: $0, directories: UnitSandbox.searchPath(environment: environment))
          .settings(making: deviceDirectory)
      } ?? [] : []
    let facts = ConfinementFacts(
      isRoot: root, isInUserNamespace: root && Confinement.isInUserNamespace,
      overridesFilePermissions: !root
        || Confinement.hasCapabilities(Confinement.overrideFilePermissions),
      readOnlyMount: isReadOnly
        ? (Confinement.mount(holding: path).map(\.point) ?? path) : nil,
      service: service ?? (environment["INVOCATION_ID"] != nil ? "this service" : nil),
      sandboxSettings: sandbox, deviceDirectory: isReadOnly ? deviceDirectory : nil)
    return PermissionAdvice(
      access: access, path: path, errno: errno,
      isRuleInstalled: packageRulePaths.contains(where: FileSystem.exists),
      isListedInGroup: listed ?? false,
      hasGroup: groupID.map(CurrentProcess.groupIDs.contains) ?? false,
      isGroupsFile: status.map { $0.groupID == groupID && $0.isGroupWritable } ?? false,
      confinement: facts)
  }

  /// A refused device's error (`description`), then the advice for its `access`: status 77.
  static func report(_ description: String, _ access: DeviceAccess, path: String, errno: Errno)
    -> (message: String, status: Int32)
  {
    let advice = current(access, path: path, errno: errno).text
    return (description + "\n" + advice, ExitStatus.permissionDenied)
  }

  /// One short paragraph: what to do next.
  var text: String {
    if let mount = confinement.readOnlyMount { return readOnlyText(mount) }
    if confinement.isRoot { return rootText }
    if hasGroup {
      if isGroupsFile {
        return "You are in group `\(group)` and \(shown: path) is the group's to write, yet it was "
          + "refused: an access control list or a security module (AppArmor, SELinux) "
          + "decides so; the kernel log may say which (`journalctl -k`)."
      }
      return "You are in group `\(group)`, but \(shown: path) is not the group's to write yet: "
        + applyRuleText
    }
    if isListedInGroup {
      let login =
        "You are in group `\(group)`, but this login is not yet: log in again (or run "
        + "`newgrp \(group)`)."
      return isGroupsFile || access.rule == nil
        ? login
        : login + " And " + path
          + " is not the group's to write yet: " + applyRuleText
    }
    guard !isRuleInstalled, let rule = access.rule else {
      // Cameras: every distribution's udev rules give /dev/video* to group `video`.
      return "Only root and group `\(group)` may \(access.use) here: add yourself with "
        + "`sudo usermod -aG \(group) $USER` and log in again."
    }
    return """
      Run it as root, or let group `\(group)` \(access.use): install this udev rule as a file \
      in /etc/udev/rules.d/ (man morsetorch, PERMISSIONS):
        \(rule)
      then run `sudo groupadd -f \(group) && sudo usermod -aG \(group) $USER`, apply the rule \
      (\(access.applyCommand)) and log in again.
      """
  }

  /// The udev rule not applied (yet) to this device: apply it, or install it first.
  private var applyRuleText: String {
    guard let rule = access.rule else {
      return "the distribution's udev rules give \(access.devices) to group `\(group)`; run "
        + "`sudo udevadm trigger \(access.triggerMatch)`."
    }
    if isRuleInstalled {
      return "the udev rule has not been applied to it; run \(access.applyCommand)."
    }
    return "install this udev rule as a file in /etc/udev/rules.d/ (man morsetorch, "
      + "PERMISSIONS):\n  \(rule)\nthen run \(access.applyCommand)."
  }

  /// `EROFS`: nobody may write it, root neither; what made it read-only.
  private func readOnlyText(_ mount: String) -> String {
    let head =
      "\(shown: path) is on a read-only file system (mounted read-only at \(shown: mount)): "
      + "nobody may write it there, root neither. "
    if let service = confinement.service {
      let settings = confinement.sandboxSettings
      let which =
        settings.isEmpty
        ? "a sandbox setting (ProtectKernelTunables=, ProtectSystem= or ReadOnlyPaths=; "
          + "`systemctl cat \(shown: service)` shows which)"
        : settings.joined(separator: " and ")
      let writable = confinement.deviceDirectory ?? mount
      return head + "The systemd unit \(shown: service) makes it so with \(which): add "
        + "`ReadWritePaths=\(shown: writable)` (the device's own directory) with `sudo "
        + "systemctl edit \(shown: service)`, or remove \(settings.count == 1 ? "it" : "them")."
    }
    return head
      + "Mount it read-write (`sudo mount -o remount,rw \(shown: mount)`), or run morsetorch "
      + "where it is writable: a container's /sys is read-only unless the container is "
      + "privileged."
  }

  /// Root refused (`EACCES`, `EPERM`): not the permission bits of a real root.
  private var rootText: String {
    if confinement.isInUserNamespace {
      return
        "This root is a container's (a user namespace): \(shown: path) belongs to a user outside "
        + "it, and only the host's root or group `\(group)` may write it. Run morsetorch on the "
        + "host, or give the container's user the device (its udev rule, group `\(group)`)."
    }
    if !confinement.overridesFilePermissions {
      let unit =
        confinement.service.map { "the unit \($0)'s CapabilityBoundingSet=" }
        ?? "a systemd unit's CapabilityBoundingSet=, a container"
      return "This root runs without CAP_DAC_OVERRIDE (\(unit)), so the permission bits of "
        + "\(shown: path) count: give the process group `\(group)` (SupplementaryGroups=\(group) in a "
        + "unit, with the udev rule applied), or the capability."
    }
    return "Even root is refused: a security module (AppArmor, SELinux) or a device cgroup (a "
      + "unit's DevicePolicy=, DeviceAllow=) decides so; the kernel log may say which "
      + "(`journalctl -k`)."
  }
}
