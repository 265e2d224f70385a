import TransmitterControl

/// The manual page, `morsetorch.1`, made from the same text as `--help` (the commands' help,
/// their options, the exit statuses and the environment), so that the two never disagree:
/// `--help` is the short part of it.
enum ManPage {
  static var text: String {
    var page: [String] = [
      #".\" The manual of morsetorch, printed by `morsetorch help --man` from its help."#,
      ".TH MORSETORCH 1 \(releaseDate) \"morsetorch \(version)\" \"User Commands\"",
      ".SH NAME",
      #"morsetorch \- send text as Morse code on a Linux LED, GPIO line or serial port, and"#
        + " receive it"
        + " from \(SourceOption.phrases)",
      ".SH SYNOPSIS",
    ]
    for usage in CommandTable.commands.map(\.help.usage) + ["--help", "--version"] {
      page += synopsis(usage)
    }
    page += [".SH DESCRIPTION"]
    page += paragraph(
      isFirst: true,
      """
      morsetorch sends text as Morse code on a Linux LED (a phone's white:flash torch, a
      Raspberry Pi's ACT LED, a laptop's Caps Lock), a GPIO line or a serial port's DTR or
      RTS (a radio's key), and receives Morse from
      \(SourceOption.phrases). Every edge is switched at an absolute deadline on the monotonic clock, so
      errors never add up (ITU timing: a dot is one unit, a dash three, the gaps one, three and
      seven); a signal, `stop` or running it again stops a transmission at once; the LED's
      trigger and brightness are always put back as they were.
      """)
    page += [".PP", "The commands:", ".RS"]
    for command in CommandTable.commands {
      page += [".TP", ".B \(command.name)", escaped(command.summary)]
    }
    page += [".RE", ".SH COMMANDS"]
    for command in CommandTable.commands {
      page += [".SS \(escaped(command.help.usage))"] + prose(command.help.paragraphs)
      page += [".PP", "Options:"]
      page += command.options.flatMap(optionItem)
      page += reads(command.help)
    }
    page += [".SH OPTIONS", "Before any command:"] + ToolOption.specs.flatMap(optionItem)
    for (heading, text) in ManualTopics.sections { page += [".SH \(heading)"] + prose(text) }
    page += referenceSections
    page += permissionsSection + [".SH SECURITY"] + prose(security)
    page += [".SH EXAMPLES"]
    page += [".nf"] + (HelpText.examples + examples).map(escaped) + [".fi"]
    page += [
      ".SH SEE ALSO",
      #".BR journalctl (1),"#, #".BR systemd-tmpfiles (8),"#, #".BR udev (7),"#,
      #".BR gpioinfo (1)"#,
      ".PP",
      "The kernel's LED class and GPIO character device documentation.",
    ]
    return page.joined(separator: "\n")
  }

  /// The environment variables the tool reads, with what each does: the `--help` list and the
  /// ones only the manual names.
  static let environment: [(String, String)] = {
    let variables = HelpText.variables.map { ($0.term, $0.text) }
    return variables + [
      (
        "XDG_RUNTIME_DIR",
        "where the per-user runtime directory is looked for when /run/morsetorch is missing"
      ),
      ("NO_COLOR", "when set, the progress line has no colour"),
      ("TERM", "with TERM=dumb, no progress line, and --preview prints plain lines"),
      (
        "MORSETORCH_SYSLOG_SOCKET",
        "the syslog socket --detach logs to (default /dev/log; for tests)"
      ),
      (
        "MORSETORCH_SERVICE",
        "set by the beacon's systemd unit to its name; send then refuses --detach"
      ),
      (
        "MORSETORCH_READY_FD",
        "set by --detach for its background copy (the descriptor it reports on); not for users"
      ),
    ]
  }()

  static let files: [(String, String)] = [
    (
      "/sys/class/leds/NAME/",
      "the LEDs: brightness, max_brightness and trigger, and the trigger's own files"
    ),
    ("/dev/gpiochipN", "the GPIO chips (uAPI v2)"),
    (
      "/run/morsetorch/",
      "the runtime directory: one lock, state record and stop socket per LED or line"
    ),
    (
      "/usr/lib/tmpfiles.d/morsetorch.conf",
      "makes /run/morsetorch at boot: owner root, group leds, mode 3770 (sticky)"
    ),
    (
      "/lib/udev/rules.d/90-morsetorch.rules",
      "lets group leds switch LEDs and group gpio use the GPIO chips"
    ),
    (
      "/lib/systemd/system/morsetorch-beacon@.service",
      "a beacon at boot on the LED named by the instance"
    ),
    (
      "/etc/morsetorch/beacon-NAME.conf",
      "TEXT= and OPTIONS= of the beacon on LED NAME (its real name, even where the unit's "
        + "instance is escaped with systemd-escape)"
    ),
    (
      "/lib/systemd/system/morsetorch-cwdaemon.service",
      "morsetorch cwdaemon as a service (systemctl enable --now morsetorch-cwdaemon)"
    ),
    (
      "/etc/default/morsetorch-cwdaemon",
      "ARGS= of the cwdaemon service: cwdaemon's options (-d ttyUSB0 -s 24 -t 30)"
    ),
  ]

  /// EXIT STATUS, ENVIRONMENT and FILES: lists of terms.
  private static var referenceSections: [String] {
    var page = [".SH EXIT STATUS"]
    for row in HelpText.statusRows {
      page += [".TP", ".B \(row.term)", escaped(row.text)]
    }
    page += [".SH ENVIRONMENT"]
    for (name, meaning) in environment {
      page += [".TP", ".B \(name)", escaped(meaning)]
    }
    page += [".SH FILES"]
    for (path, meaning) in files {
      page += [".TP", ".I \(escaped(path))", escaped(meaning)]
    }
    return page
  }

  /// PERMISSIONS: who may use which device, and how to set it up, with the udev rules.
  private static var permissionsSection: [String] {
    [".SH PERMISSIONS"] + prose(permissions) + [".PP", ".nf"]
      + deviceHomes.compactMap { $0.access.rule }.map(escaped) + [".fi"]
      + paragraph(
        """
        Then run `\(deviceHomes.map { "sudo groupadd -f \($0.access.group)" }.joined(separator: " && "))`, `sudo udevadm control
        --reload && sudo udevadm trigger --action=add`, join the groups and log in again, and
        give root and the group one runtime directory with the line
        `d /run/morsetorch 3770 root leds -` in /etc/tmpfiles.d/morsetorch.conf
        (`sudo systemd-tmpfiles --create`).
        """)
  }

  /// `text`'s paragraphs as roff, the first right under its heading.
  private static func prose(_ text: String) -> [String] {
    prose(text.split(separator: "\n\n").map(String.init))
  }

  /// `paragraphs` as roff, the first right under its heading.
  private static func prose(_ paragraphs: [String]) -> [String] {
    paragraphs.enumerated().flatMap { index, text in paragraph(isFirst: index == 0, text) }
  }

  /// What a command reads and its exit statuses: each status by number, and in full those
  /// that mean something narrower for it than under EXIT STATUS.
  private static func reads(_ help: CommandHelp) -> [String] {
    var page: [String] = []
    if !help.environment.isEmpty {
      let names = help.environment.map(\.term).joined(separator: ", ")
      page += [".PP", "Environment: \(names) (ENVIRONMENT)."]
    }
    let numbers = help.statuses.map(\.term).joined(separator: ", ")
    let specific = help.statuses.filter { row in
      !HelpText.statusRows.contains { $0.term == row.term && $0.text == row.text }
    }
    let more = specific.isEmpty ? "." : "; for this command:"
    page += [".PP", escaped("Exit status: \(numbers) (EXIT STATUS)\(more)")]
    for row in specific { page += [".TP", ".B \(row.term)", escaped(row.text)] }
    return page
  }

  /// Who may use which device, and how to set it up; the rules follow it in the page.
  static let permissions = """
    Root may use every LED and GPIO chip. Other users need write access to the LED's files
    (brightness, trigger and the active trigger's settings) or to the GPIO chip's device.
    `morsetorch list` shows WRITABLE yes for the LEDs you may use, and otherwise names what
    you may not write; a send that may not write an LED exits with status 77 before anything
    is changed, saying the step that is missing.

    The Debian package sets this up: its udev rule gives group leds every writable file of
    each LED and of one directory below it (power/ and uevent left to root), again whenever
    the trigger changes and its settings appear, and group gpio the GPIO chips; its tmpfiles
    line makes /run/morsetorch (owner root, group leds, mode 3770), so that root and the
    members see and stop each other's transmissions. A user then only joins the group
    (`sudo usermod -aG leds $USER`, or gpio) and logs in again. Where systemd-tmpfiles is
    missing (a container, sysvinit, WSL), the package makes the directory itself, and
    root's first morsetorch makes it the same way wherever group leds exists. A member of
    leds who may not write an existing /run/morsetorch is told so (status 78, with the
    commands that share it) rather than using a directory of their own that root's status
    and stop would never look in.

    A refused write is diagnosed, and the advice names the one step that is missing: not in
    the group (join it); in the group in /etc/group but not in this login (log in again, or
    `newgrp leds`); in the group, but the LED's files are not the group's yet (the udev rule
    was not applied to it: `sudo udevadm control --reload && sudo udevadm trigger
    --action=add --subsystem-match=leds`, or the rule is to be installed first). A read-only
    file system (EROFS: a container's /sys, a unit's ProtectKernelTunables=yes,
    ProtectSystem=strict or ReadOnlyPaths=) is said as such, with its mount point, and under
    systemd with the settings to change; root refused is told why: a container's root (a
    user namespace) that the files do not belong to, no CAP_DAC_OVERRIDE (a unit's
    CapabilityBoundingSet=: give it SupplementaryGroups=leds), or a security module.

    Cameras (receive --camera) belong to group video on every distribution, by its own udev
    rules: a user who may not open one gets status 77 and joins that group
    (`sudo usermod -aG video $USER`, then logs in again).

    Without the package, install these rules as /etc/udev/rules.d/90-morsetorch.rules:
    """

  /// Who may do what through the shared runtime directory, and what morsetorch holds to.
  static let security = """
    The runtime directory /run/morsetorch is shared by root and the members of group leds, so
    that they see and stop each other's transmissions. A file there proves no more than the
    kernel says about it: its owner, its mode, its link count and its type. The sticky bit
    (mode 3770) keeps a member from removing or replacing another user's files, but not from
    making a hard link to any file she may read and write (the group's lock files among them)
    in a directory of her own there, and renaming it back in under a new name. The directory
    must belong to root or to you and not be writable by everyone; a group-writable one must
    be sticky. Files in it are never opened through a symlink, nor waited on in open(2).

    A state record counts as its owner's only if no one else could have written it: a plain
    file with one link whose mode lets only its owner write (morsetorch writes them 0644).
    Any other record does not show who wrote it, and is said and ignored, whoever owns it.
    status and stop keep a record they cannot use; the device's next send removes it.

    A record of another user is applied with that user's rights on files: each write of the
    restore is made on a thread of its own whose file-system user and group IDs and groups
    are that user's (setfsuid, setfsgid and setgroups, from /etc/passwd and /etc/group), with
    no capability in effect, so the kernel decides what they may write: permission bits and
    ACLs alike. What they may not write is left alone with a warning; a user /etc/passwd does
    not list may write nothing. So root running status, stop or send never writes for a
    member what the member could not write. Its real, effective and saved IDs stay root's all
    along: those are what the kernel asks before it lets one process signal, trace or lower
    the limits of another (a thread that took her user ID would let her stop or kill root's
    whole process), so acting on her record gives her no handle on root's. A process
    that cannot act as another user (a member; root without CAP_SETUID and CAP_SETGID, as in
    the beacon's unit) leaves that user's record, with status 75, for root or its writer.

    A record is data with a strict schema. Every file a restore writes is opened beneath the
    LED's own directory with no symlink followed at any step (openat2 with RESOLVE_BENEATH and
    RESOLVE_NO_SYMLINKS, or one component at a time with O_NOFOLLOW on older kernels), so a
    setting such as device/inhibited is never reached through the device link. A setting is
    written only if it is one of the saved trigger's own: a setting the trigger is known to
    have, or a file that appeared when the trigger was written back; anything else, or one
    that no longer exists (an unplugged USB port of usbport), is skipped with a warning naming
    it, and the rest is restored. A GPIO record must name a gpiochipN character device of the
    GPIO directory, checked without following a symlink, that its writer may open.

    Locks are POSIX record locks, which the kernel drops when their process ends. A lock or
    tickets file with more than one link, or that is no plain file, is replaced by root (or
    by its owner) once it holds its lock: a new file, locked, renamed over it; anyone else is
    told that root's next send or stop on the device replaces it. Root likewise replaces a
    member's lock file with its own when it takes the device, so that the member cannot remove
    the lock while root sends. The tickets file of --wait is held only for a moment: one held
    for over 2 seconds is replaced the same way, or, for anyone else, is an error naming its
    holder. A lock held by no process (an open file description lock, which F_GETLK reports
    as pid -1, or a process in another PID namespace) is an error naming the lock file, never
    a holder to signal; send --wait behind one gives up after \(DeviceLock.foreignLockPatience
    .components.seconds) seconds with that error. A directory put where a state record or a stop socket goes is moved
    aside to a hidden name by root or its owner; a sender that still cannot make its stop
    socket says so, since only a signal stops it then, which only its own user and root may
    send.

    Without --led, --gpio or --serial, status and stop pass over lock files that name no
    device that exists, ask every holder and waiter at once (one that never answers costs the wait once,
    not once per device), and say on standard error what they cannot read or stop without
    changing their exit status: nothing a member plants makes root's status or stop fail.
    Every write of a restore is checked: a restore that fails keeps its record and says what
    failed.
    """

  /// The examples after those of the tool's help.
  static let examples: [String] = [
    "morsetorch send --dry-run --edges \"PARIS\" | morsetorch receive --edges -",
    "morsetorch stop",
    "systemctl enable --now morsetorch-beacon@white:flash.service",
  ]

  /// `usage` (`send [options] [TEXT...]`) as a synopsis of man(7)'s `.SY` and `.YS` (groff's
  /// an-ext, which mandoc reads too): a line too long for the page goes on indented under
  /// the command's name. The first word is the command; each optional option on its own
  /// (`[--alphabet NAME]`) is an `.OP`; any other group of words is a line that breaks only
  /// at its `|` (`[--led NAME]...`, `(--gpio CHIP:LINE | --edges FILE)`).
  static func synopsis(_ usage: String) -> [String] {
    var lines = [".SY morsetorch"]
    for (index, group) in groups(usage).enumerated() {
      let words = group.dropFirst().dropLast().split(separator: " ")
      if index == 0 {
        lines.append(".B \(escaped(group))")
      } else if group.hasPrefix("["), group.hasSuffix("]"), (1...2).contains(words.count),
        words[0].hasPrefix("-"), !group.dropFirst().dropLast().contains(where: "[]()|".contains)
      {
        lines.append(".OP " + words.map { escaped(String($0)) }.joined(separator: " "))
      } else {
        lines.append(#"\&"# + synopsisLine(group))
      }
    }
    return lines + [".YS"]
  }

  /// `usage`'s words and bracketed groups, apart where a space is outside every bracket.
  private static func groups(_ usage: String) -> [String] {
    var groups: [String] = []
    var current = ""
    var depth = 0
    for character in usage {
      switch character {
      case "[", "(": depth += 1
      case "]", ")": depth -= 1
      case " " where depth == 0:
        if !current.isEmpty { groups.append(current) }
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    return current.isEmpty ? groups : groups + [current]
  }

  /// A group of a synopsis as roff: options bold, values and other words italic, the
  /// brackets, `|` and `...` roman; unbreakable but at a `|`.
  private static func synopsisLine(_ group: String) -> String {
    let punctuation: Set<Character> = ["[", "]", "(", ")", "."]
    let words = group.split(separator: " ").map { word -> String in
      let core = word.drop { punctuation.contains($0) }
      let name = core.prefix { !punctuation.contains($0) }
      guard !name.isEmpty, name != "|" else { return escaped(String(word)) }
      let font = name.hasPrefix("-") ? #"\fB"# : #"\fI"#
      return escaped(String(word[..<core.startIndex])) + font + escaped(String(name)) + #"\fR"#
        + escaped(String(core[name.endIndex...]))
    }
    var line = ""
    for (index, word) in words.enumerated() {
      if index > 0 { line += word == "|" || words[index - 1] == "|" ? " " : #"\~"# }
      line += word
    }
    return line
  }

  /// A paragraph; the first under a heading needs no `.PP`.
  private static func paragraph(isFirst: Bool = false, _ text: String) -> [String] {
    (isFirst ? [] : [".PP"]) + lines(text)
  }

  private static func optionItem(_ option: OptionSpec) -> [String] {
    var term = option.shortName.map { #"\fB\-\#($0)\fR, "# } ?? ""
    term += #"\fB\-\-\#(option.name)\fR"#
    if let value = option.valueName { term += #" \fI\#(escaped(value))\fR"# }
    let details = option.details.map { [".br"] + lines($0) } ?? []
    return [".TP", term] + lines(option.help) + details
  }

  /// `text`'s lines as roff.
  private static func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map { escaped(String($0)) }
  }

  /// `text` as roff: backslashes doubled, dashes as `\-`, and a line that starts with `.` or
  /// `'` kept from being read as a request.
  static func escaped(_ text: String) -> String {
    var result = text.replacing("\\", with: #"\e"#)
    result = result.replacing("-", with: #"\-"#)
    if result.hasPrefix(".") || result.hasPrefix("'") { result = #"\&"# + result }
    return result
  }
}
