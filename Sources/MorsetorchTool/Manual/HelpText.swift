// Over 400 lines: a table, every command's help text and the rows (statuses, variables) they
// share, one entry after another, so that the manual and --help say each once.
/// What `--help` and the manual say of the tool and of each command.
enum HelpText {
  typealias Row = HelpLayout.Row

  /// What the signal statuses are, after what stopping did first.
  private static func signalRow(_ firstDone: String) -> Row {
    Row(
      "128+N",
      "stopped by signal N, \(firstDone): 129 SIGHUP, 130 SIGINT (Ctrl-C), 131 SIGQUIT "
        + "(Ctrl-\\), 143 SIGTERM, 138 SIGUSR1, 142 SIGALRM, 162-192 the real-time signals; "
        + "any signal whose default is to end the process (not the crash signals, nor "
        + "SIGPIPE, which is ignored: a closed pipe is the exit 0 above)")
  }

  /// 69 for the commands that use an LED or a line (`list` has its own).
  private static let deviceUnavailable = Row(
    "69", "LED, GPIO line or serial port unavailable: not found, or vanished while sending")

  /// Every exit status, as the manual's EXIT STATUS lists them. A command whose status means
  /// something narrower declares its own row for it with its help.
  static let statusRows: [Row] = [
    Row(
      "0",
      "done; also when the reader of standard output went away (`| head`): the output, "
        + "and a --echo or --preview transmission, ends there"),
    Row(
      "1",
      "cwdaemon: a bad option (as cwdaemon: a port outside 1024-65535), or the port cannot be had"),
    Row("3", "stop, status: nothing is being sent (nor left to restore)"),
    Row("4", "send: cancelled another transmission on the LED (a rerun); nothing was sent"),
    Row(
      "5",
      "receive: nothing was read (no character: no light found, no frame, no edge, or "
        + "--timeout before any); a doubtful reading is 0, its doubts on standard error"),
    Row("64", "usage error: unknown option, value out of range, options that do not go together"),
    Row("65", "bad input: a character without a Morse signal, invalid UTF-8, an unknown code"),
    Row(
      "69",
      deviceUnavailable.text
        + "; list: no LED (with --gpio: no GPIO chip, --serial: no port) at all"
    ),
    Row("70", "internal error (please report it)"),
    Row(
      "71",
      "a system limit was reached: no thread could be started (ulimit -u, ulimit -v), "
        + "no file descriptor was free (ulimit -n)"),
    Row("73", "an output file (receive --edges-out, --trace) cannot be created"),
    Row(
      "74",
      "I/O error reading input (also a closed standard input), writing standard output "
        + "(which also ends a --echo or --preview transmission) or an LED"),
    Row(
      "75",
      "LED busy (a flash in use by a camera), GPIO line in use, or its lock held by a "
        + "process that does not let go; try again"),
    Row(
      "77",
      "permission denied writing the LED or opening the GPIO chip, or the LED on a "
        + "read-only file system; the message says which step is missing (man: PERMISSIONS)"),
    Row("78", "the runtime directory for the LED locks is missing or unsafe"),
    signalRow(
      "the LED put back first (143 is also what a transmission cancelled by `stop` or a rerun "
        + "exits with)"),
  ]

  /// The statuses a command can exit with, `specific` rows in place of the general ones
  /// with the same status.
  static func statuses(_ statuses: [String], _ specific: Row...) -> [Row] {
    statusRows.filter { statuses.contains($0.term) }.map { row in
      specific.first { $0.term == row.term } ?? row
    }
  }

  static let ledsDirectoryVariable = Row(
    "MORSETORCH_LEDS_DIR", "the LED class directory (default /sys/class/leds)")
  static let gpioDirectoryVariable = Row(
    "MORSETORCH_GPIO_DIR", "where the gpiochipN devices are (default /dev; for tests)")
  static let serialDirectoryVariable = Row(
    "MORSETORCH_SERIAL_DIR",
    "where the serial ports' ttyN devices are, with the tty class directory as its "
      + "sys-class-tty (default /dev and /sys/class/tty; for tests)")
  static let videoDirectoryVariable = Row(
    "MORSETORCH_VIDEO_DIR", "where the videoN devices are (default /dev; for tests)")
  static let ledVariable = Row("MORSETORCH_LED", "the LED to use when --led is not given")
  static let runtimeDirectoryVariable = Row(
    "MORSETORCH_RUNTIME_DIR",
    "where the per-LED locks and state records live (default /run/morsetorch, "
      + "/var/run/morsetorch, $XDG_RUNTIME_DIR/morsetorch, then /tmp/morsetorch-UID; "
      + "man morsetorch: SECURITY)")

  /// Every variable the commands read, as the manual's ENVIRONMENT starts with them.
  static let variables = [
    ledsDirectoryVariable, gpioDirectoryVariable, serialDirectoryVariable,
    videoDirectoryVariable, ledVariable, runtimeDirectoryVariable,
  ]

  /// What `stop` and `status` read: no MORSETORCH_LED (without --led they see every LED).
  private static let controlVariables = [
    ledsDirectoryVariable, gpioDirectoryVariable, serialDirectoryVariable,
    runtimeDirectoryVariable,
  ]

  /// The commands as the tool's help lists them: the name and what it does (`CommandTable`);
  /// each command's usage line is its own help's (and the manual's synopsis).
  private static var commandRows: [Row] {
    CommandTable.commands.map { Row($0.name, $0.summary) }
  }

  /// The examples of the tool's help; the manual's EXAMPLES start with them.
  static let examples = [
    "morsetorch send \"SOS\"",
    "journalctl -f | morsetorch send --led input3::capslock",
    "morsetorch send --dry-run --wpm 20 \"CQ CQ\"",
    "morsetorch send --gpio gpiochip0:17 --loop SOS",
    "morsetorch encode \"Hello, world\"   # .... . .-.. .-.. --- --..-- / .-- ---",
  ]

  /// The last line of every `--help`: where the rest is.
  static let manualPointer =
    "Exit statuses, environment, details: man morsetorch (morsetorch help --man)."

  static let tool = HelpLayout.filled(
    """
    morsetorch \(version) - send text as Morse code on a Linux LED

    Usage: morsetorch COMMAND [options]

    Commands:
    \(HelpLayout.table(commandRows, column: 14))

    Options:
      -h, --help      show help (also after a command: morsetorch send --help)
      --version       print the version

    Examples:
    \(examples.map { "  " + $0 }.joined(separator: "\n"))

    \(manualPointer)
    """)

  static let send = CommandHelp(
    usage: "send [options] [TEXT...]",
    summary: """
      Blinks TEXT as Morse code on an LED (or a GPIO line, or a serial port's DTR or RTS) and
      puts it back as it was; with no
      TEXT, or "-", it sends standard input line by line. A character of TEXT with no Morse
      signal is an error (65) before anything is sent; standard input, a stream, drops
      terminal escape sequences and skips such characters with a warning.
      """,
    details: """
      It exits when the last step has ended, with the LED's trigger and brightness as they
      were. Several TEXT words are joined by spaces. With no TEXT, or TEXT "-", standard input
      is read and sent line by line as each line arrives (a line over 4 KiB in pieces as they
      arrive, cut at a space, or inside a word that has none: the word goes on after a letter
      gap).

      TEXT given as arguments is checked whole before anything is sent: a character without a
      Morse signal is an error naming it and its line and column (status 65), unless
      --skip-unknown drops it with a warning. Standard input is a stream, and never ends on
      one: terminal escape sequences (CSI, OSC: the colours of systemd's messages) are
      dropped, what has a signal it stands for is sent as that (… as ...), and any other
      character without a Morse signal is skipped, with one warning for each kind of
      character (ENCODING).

      Typed at a terminal, each line is sent when Enter is pressed; Ctrl-D at the start of a
      line ends the input (what is being sent is finished first), Ctrl-C stops at once. No
      progress line is drawn while the text is typed, so none is drawn where you type.

      One transmission per LED: if another morsetorch is sending on the LED, `send` cancels it
      (the LED goes back as it was), says so, and exits 4 without sending: run it again to
      stop. A rerun with other text than the one it cancelled also says how to send it
      instead (--replace) or after (--wait). --replace cancels it and then sends; --wait waits
      for it (and for earlier waiters), saying who it waits for.

      Ctrl-Z (SIGTSTP), or a background job's read or write at its terminal (SIGTTIN,
      SIGTTOU), puts the LED back as it was (trigger, settings, brightness) before the job
      stops; `fg` or `bg` (SIGCONT) takes it again and the message goes on, its schedule moved
      by the time stopped (the element the stop cut is not sent again). Every signal that
      would end the process puts the LED back first (EXIT STATUS).

      Timing (ITU): dot 1 unit, dash 3, gap in a character 1, between characters 3, between
      words 7; unit = 1200 / WPM ms.

      The LED: --led NAME, else $MORSETORCH_LED, else automatic: a torch or flash LED if there
      is one, else the first LED by name (the choice is reported whenever there are several
      LEDs).
      With no LED at all and none named, at a terminal, the light is shown there instead
      (--preview); from a script it exits 69.

      A GPIO line instead (an LED, buzzer or relay on a pin): --gpio CHIP:LINE, where CHIP is
      gpiochip0, 0, /dev/gpiochip0 or the chip's label, and LINE an offset or a line name
      (--gpio pinctrl-bcm2711:GPIO17); --active-low for reversed wiring, --bias for a pull.
      Afterwards the line is driven inactive and released.

      A serial port's line instead (a radio's key, a relay): --serial PORT[:LINE], where PORT
      is /dev/ttyUSB0, ttyUSB0 or /dev/serial/by-id/NAME and LINE dtr (the default) or rts;
      --active-low for reversed wiring. Every other line is left as found (man morsetorch,
      SERIAL: what opening a port does to DTR and RTS, and how to stop it).

      Several LEDs: give --led more than once, or a shell-style pattern in quotes
      ('*::capslock', '*:green:*'). They switch together at every deadline, each at its own
      max_brightness (or --brightness), and are restored together. It is all or nothing: if
      one is busy, the rerun rules above apply to the whole set, and nothing is sent unless
      every LED is ours; if you may not write one (`list` says which), none is touched (77).
      At most \(DeviceNames.limit) LEDs. If one fails or vanishes mid-message, the others are
      switched off and restored too. `status` and `stop` on any one of them see the whole
      transmission. Devices of several kinds go the same way: --led capslock --serial
      ttyUSB0 --gpio gpiochip0:17 switch together, held all or none.

      Progress: at a terminal, one line on standard error, redrawn in place (the character, a
      bar with the time, the round or input line) and erased at the end; not with --quiet,
      TERM=dumb, or --echo to the terminal; no colour with NO_COLOR.

      --preview draws the light on one line of the terminal, the progress after it; into a
      pipe or a file, or with TERM=dumb, it prints one plain line per character as it starts
      ("S ...") instead.
      """,
    options: SendOption.specs, environment: variables,
    statuses: statuses(
      ["0", "4", "64", "65", "69", "70", "71", "74", "75", "77", "78", "128+N"], deviceUnavailable))

  static let encode = CommandHelp(
    usage: "encode [--skip-unknown] [TEXT...]",
    summary: """
      Prints TEXT (or each line of standard input) as Morse code: characters separated by one
      space, words by " / ".
      """,
    details: """
      Prosigns are written in angle brackets: <SK>, <AR>, <BT>, <KN>.
      """,
    options: EncodeOption.specs, statuses: statuses(["0", "64", "65", "70", "71", "74"]))

  static let receive = CommandHelp(
    usage: "receive \(SourceOption.usage) [options]",
    summary: """
      Reads Morse from \(SourceOption.phrases), and prints it as it
      comes, by the sender's own timing: a few characters behind (the first of a line once
      about ten are keyed or it pauses; a file's, a line at a time), a space at a word gap, a
      line break after 4 s of silence.
      """,
    details: """
      From a GPIO input line (a key to ground with --active-low --bias pull-up, or a light
      sensor), with the kernel's timestamps of each edge; or from FILE (- for standard input,
      or a FIFO, read from when a writer comes), one edge per line: SECONDS LEVEL, the level 1
      (on, key down) or 0, blank lines and # comments (of any length) ignored (`morsetorch
      send --dry-run --edges` writes them); or from a light in a video file as it is
      (`morsetorch receive --video clip.mp4`, decoded by ffmpeg, each frame at its own time),
      or in a YUV4MPEG2 stream on standard input, timed by its frame rate; or from a light a
      camera sees (V4L2: GREY,
      YUYV, NV12 or YUV420 pictures, the kernel's timestamps). It stops when interrupted or at
      --timeout, even while no input comes, and at the end of FILE.

      A camera's automatic exposure and gain are turned off while it is read (a fixed exposure
      of half a frame), and every control changed is put back at the end, also after a signal.

      In a video or a camera's picture the light is the spot that blinks like Morse (marks of
      two lengths), brighter while it is on (a light that fills the picture or lights the
      room is read; a wall the exposure darkens beside it is not the light), or darker with
      --active-low (a lamp lit while idle); not the brightest one nor an LED blinking at a
      steady rate; it is followed
      as it moves, and standard error says where it was found (X,Y (WxH) in pixels), moved or
      lost. A frame lit for part of its exposure places the edge inside it, so a mark or gap
      of one frame or more is timed to a few milliseconds: 30 WPM reads at 30 frames a second,
      60 WPM at 60 (RECEIVING).

      The receiver finds the speed from the first dot and dash (--wpm is where it starts) and
      follows the sender within \(ReceiverSpeeds.spelled) WPM: a signal lamp or a torch flashed by hand (dots
      of a second, letters seconds apart) as well as a fast key; every rule in time (when a
      character is complete, a word, a line) scales with the speed found. Pulses and gaps
      under 5 ms (contact bounce), and once the speed is known under 0.4 dot up to 20 ms (a
      flash in a gap, a dropout in a mark), are ignored. Dots are told from dashes by the
      marks' own two lengths (a lamp's dash may be only twice its dot), the gaps inside a
      letter by their own length (a lamp's shutter may be dark for a tenth of a dot), letter
      and word gaps by theirs, so stretched (Farnsworth) spacing reads right (--farnsworth
      helps from the first gap).
      Prosigns print as <SK>, a code with no meaning as [......].

      Standard error says, once each, what makes the text doubtful and what to try: a speed
      at either end of the range (near \(ReceiverSpeeds.range.lowerBound) or \(ReceiverSpeeds.range.upperBound) WPM; --wpm); at the end, many characters
      the reading was not sure of (another reading nearly as likely) or with no meaning, and
      many marks of neither length. Nothing read at all (no character) is exit status 5.
      """,
    options: ReceiveOption.specs, environment: [gpioDirectoryVariable, videoDirectoryVariable],
    statuses: statuses(
      ["0", "5", "64", "65", "69", "71", "73", "74", "75", "77", "128+N"],
      Row("65", "a bad edge line; a --video FILE that is not a video stream, or is cut short"),
      Row(
        "69",
        "the GPIO chip or line, or a camera, was not found (or vanished while reading); the "
          + "video devices that will not do say why"),
      Row(
        "73",
        "the --edges-out FILE cannot be created, or is a FIFO no process reads yet; the "
          + "--trace FILE cannot be created, or is no regular file"),
      Row(
        "74",
        "I/O error reading FILE, the GPIO line or the camera, or writing standard output; a "
          + "camera control could not be put back"),
      Row("75", "the GPIO line or the camera is in use; try again"),
      Row(
        "77",
        "permission denied opening the GPIO chip or the camera (group video; man: "
          + "PERMISSIONS)"),
      signalRow("after printing what was read")))

  static let decode = CommandHelp(
    usage: "decode [--alphabet NAME] [CODE...]",
    summary: """
      Prints dots and dashes (or each line of standard input) as text. Codes are separated by
      spaces; words by "/" or by three or more spaces.
      """,
    details: """
      Dots and dashes pasted from the web (·−·, ._., •–•) read as . and -. Cyrillic and Greek
      share their codes with Latin letters: --alphabet cyrillic or greek reads letters in that
      script (figures and punctuation read as usual). A code with no character but a prosign
      prints as <SK>.

      A code with no meaning at all prints as `receive` shows it, [......], and the rest is
      still decoded; each such code is named on standard error with its line and column, and
      the exit status is then 65.
      """,
    options: DecodeOption.specs, statuses: statuses(["0", "64", "65", "70", "71", "74"]))

  static let alphabet = CommandHelp(
    usage: "alphabet",
    summary: """
      Shows every character morsetorch sends, with its code, and the named prosigns.
      """,
    details: """
      The ITU-R M.1677-1 set, the extensions (not ITU), the characters sent as other signals
      (like % as 0/0, [ as ( and * as X, … as ...), the Cyrillic and Greek tables, and the
      named prosigns. A Latin letter with a mark and no signal of its own (ï, Ł, ş) is sent as
      its letter.
      """,
    options: AlphabetOption.specs, statuses: statuses(["0", "64", "70", "71", "74"]))

  static let list = CommandHelp(
    usage: "list [--gpio | --serial]",
    summary: """
      Shows every LED under the LED class directory: its name, max_brightness, active trigger,
      current brightness, and whether you may write its brightness and trigger.
      """,
    details: """
      With --gpio, every GPIO chip (name, label, lines) and line (offset, name, direction,
      active level, who uses it) instead; with --serial, every serial port with hardware
      behind it, and whether you may use it.
      """,
    options: ListOption.specs,
    environment: [ledsDirectoryVariable, gpioDirectoryVariable, serialDirectoryVariable],
    statuses: statuses(
      ["0", "64", "69", "70", "71", "74"],
      Row(
        "69",
        "no LED (with --gpio: no GPIO chip, --serial: no port) at all, or no LED class directory"),
      Row("74", "I/O error reading an LED or a GPIO chip, or writing standard output")))

  /// What `stop` and `status` can exit with.
  private static let controlStatuses = statuses(
    ["0", "3", "64", "69", "70", "71", "74", "75", "77", "78"], deviceUnavailable)

  /// `stop` and `status`'s options in their usage line: each kind's, repeatable.
  private static var controlUsage: String {
    ControlOption.specs.filter { $0.valueName != nil }.map { "[\($0.flag) \($0.valueName!)]..." }
      .joined(separator: " ")
  }

  static let stop = CommandHelp(
    usage: "stop " + controlUsage,
    summary: """
      Cancels the transmission on the device (every one without --led, --gpio or --serial),
      and any senders waiting for it. Exits 3 when there was nothing to stop or restore.
      """,
    details: """
      --led may be repeated or a shell-style pattern. Each sender puts its LED back as it found
      it (a GPIO line: inactive) and exits with 143. An LED or line left claimed by a killed
      transmitter is restored from its state record. Every holder and waiter is asked at
      once. Exits 69 when --led names no LED (and nothing was sent on it). Without --led,
      --gpio or --serial, what cannot be stopped on one device for what another user put there is said on
      standard error and does not change the exit status.
      """,
    options: ControlOption.specs, environment: controlVariables, statuses: controlStatuses)

  static let status = CommandHelp(
    usage: "status " + controlUsage,
    summary: """
      Shows what is being sent on each device (or those --led, --gpio and --serial name): the
      state (sending, waiting for input, stopped by Ctrl-Z), the text, the process, its user
      and systemd service, how many characters have begun, for how long, and who is waiting.
      Exits 3 when nothing is being sent.
      """,
    details: """
      A standard input stream idle between lines shows "waiting for input (line N)". Exits 69
      when --led names no LED (and nothing was sent on it). Without --led, --gpio or --serial,
      what cannot be read on one device for what another user put there is said on standard error
      and does not change the exit status.
      """,
    options: ControlOption.specs, environment: controlVariables, statuses: controlStatuses)

  static let cwdaemon = CommandHelp(
    usage: "cwdaemon [-n] [-p PORT] [-d DEVICE] [-o key=LINE] [-s WPM] [options]",
    summary: """
      Listens for cwdaemon's UDP requests, as logging and contest programs (tlf's NETKEYER)
      send them, and keys a serial port's DTR (or RTS), LEDs or GPIO lines with their text, each
      request as a transmission of its own that `status` shows and `stop` or a rerun of `send`
      cancels. It takes cwdaemon 0.13's options and speaks its protocol.
      """,
    details: """
      Requests: plain text is keyed as it comes (`+` and `-` change the speed by 2 WPM from
      there on, `~` adds two units to the next letter gap, `*` is AR, a space a word gap); `text^`
      replies `text` and CR LF once its Morse has ended; ESC 0 resets, ESC 2 sets the speed
      (4-60), ESC 4 stops keying (a pending reply is answered `break`), ESC 5 exits 0, ESC 6
      turns on word mode, ESC 7 the weighting, ESC 8 the device, ESC c keys down for 1-10
      seconds (tune), ESC d the PTT delay, ESC h replies `h` and its text after the next text.
      Requests of at most 256 bytes are read; the rest of a longer one is lost, as cwdaemon
      loses it; a trailing NUL, CR or LF is ignored; a bad value is logged and ignored.

      The Morse table is libcw's, as cwdaemon's, byte by byte: where it differs from `send`'s,
      ! is ...-. (SN), ^ is KA, < is SK, > is BK, & is AS, $ is SX, ; is KR and _ is IQ; the
      Latin-1 capitals Ä Ç È É Ñ Ö Ü À are single bytes; lower-case letters are keyed as
      capitals; any other byte (UTF-8 included) has no code and is left out, as cwdaemon does.
      Weighting W makes each mark longer, and the gap after it shorter, by 1.2 W % of a unit.

      Who can key: anyone who can send a datagram to the port. It listens on 127.0.0.1 (this
      machine's own programs, every user's) unless --listen names another address; with
      --listen 0.0.0.0 anyone on the network can key the radio, so narrow it with a firewall.
      Each request is keyed by this process, with its rights, on the devices it was started for.

      Sharing: each request reserves its devices as `send` does, waiting its turn if another
      transmission holds them; `morsetorch stop` or a rerun of `send` on the device cancels the
      request being keyed (the log says so) and the daemon goes on with the next.

      For tlf, put NETKEYER (and, if the port is not 6789, NETKEYERPORT=PORT) in logcfg.dat and
      start `morsetorch cwdaemon -n -d ttyUSB0`. As a service: `sudo systemctl enable --now
      morsetorch-cwdaemon`, cwdaemon's options in ARGS= in /etc/default/morsetorch-cwdaemon. To
      keep the name cwdaemon.service (Debian's cwdaemon installed, its ARGS kept), run `sudo
      systemctl edit cwdaemon` and write the three lines `[Service]`, `ExecStart=` and
      `ExecStart=/usr/bin/morsetorch cwdaemon --nofork $ARGS`.

      Each request opens the port as `send` does, and an open at a speed other than 0 raises
      DTR and RTS for a moment (the daemon warns at start): `stty -F PORT 0` once stops it
      (SERIAL). PTT (-t or ESC d over 0) is raised around each request, not held between them: ESC a
      is logged and ignored; a request right after another lowers it for a moment. The volume
      (-v, ESC g) is not applied. A port with no modem lines (a pty) keys nothing, with a
      warning, as cwdaemon does. Statuses as cwdaemon's: 1 for any bad option or a port that
      cannot be had, 0 after ESC 5.
      """,
    options: CWDaemonOption.specs,
    statuses: statuses(["0", "1", "70", "71"]) + [signalRow("the devices restored")])

  static let help = CommandHelp(
    usage: "help [COMMAND | --man | --completions SHELL]",
    summary: """
      Shows the help of COMMAND (what `morsetorch COMMAND --help` shows), or of the tool.
      """,
    details: """
      --man prints the whole manual as a man page, made from this same help; --completions
      prints the completion script for a shell (the Debian package installs all three).
      """,
    options: HelpOption.specs, statuses: statuses(["0", "64", "70", "71", "74"]))

  /// The help of `command`, or nil if there is no such command.
  static func forCommand(_ command: String) -> String? {
    CommandTable.command(command)?.help.text
  }
}
