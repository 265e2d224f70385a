import MorseSound

/// The manual's sections on the kinds of device besides LEDs: what each is, how it is wired,
/// what the kernel does to it.
extension ManualTopics {
  static let gpio = """
    --gpio CHIP:LINE keys a GPIO line instead of an LED, through the kernel's GPIO character
    device (uAPI v2): CHIP is gpiochip0, 0, /dev/gpiochip0 or the chip's label, LINE an offset
    or a line name (--gpio pinctrl-bcm2711:GPIO17 is header pin 11 on a Raspberry Pi 4).
    `morsetorch list --gpio` shows the chips and lines and who uses each; a line in use by
    another consumer is status 75. --active-low is for a load that is on when the line is low,
    --bias sets a pull where the driver can.

    Wiring on a Raspberry Pi (3.3 V logic, at most about 16 mA per pin): an LED from the pin
    through a 330 ohm resistor to ground; an active 3.3 V buzzer from the pin to ground (a
    transistor for one that draws more than 16 mA); a relay module that switches on low with
    its IN on the pin and --active-low. After sending, the line is driven inactive and
    released, and what it does then is up to the chip's driver: wire it so that a floating
    pin is off (10 kilohm to ground on an active-high output, to 3.3 V on an active-low one).
    """

  static let serial = """
    --serial PORT[:LINE] keys a serial port's DTR line (LINE dtr, as cwdaemon keys) or its RTS
    line (LINE rts) instead of an LED: PORT is /dev/ttyUSB0, ttyUSB0 or a stable name such as
    /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0 (the same port by any name
    is one device to the locks). No data is sent and nothing of the port's settings is
    changed. While keyed, the port is locked as minicom and cu lock it (/run/lock/LCK..ttyUSB0
    holds the sender's pid; a stale one is taken over), besides morsetorch's own lock; a port
    another program has locked, or holds in exclusive mode, is status 75. morsetorch does not
    put the port in exclusive mode itself: the kernel keeps that mode after the port is
    closed, and a sender killed while keying would leave the port to root alone. Every line
    but the keyed one is left as found, so the other can be a radio's PTT held by another program between
    transmissions. `morsetorch list --serial` shows the ports with hardware behind them and
    your access; Debian gives them to group `dialout`.

    Opening a port: Linux raises DTR and RTS whenever a port is opened, unless the speed the
    kernel keeps for it is 0, and drops both when it is closed if HUPCL is set (the default).
    morsetorch puts them back at once (a warning says the open raised them), but a key on
    either line closes for that moment. To key without that, set the port's speed to 0 once
    after it appears: `stty -F /dev/ttyUSB0 0` (that stty raises the lines once itself), or
    from a udev rule when the adapter is plugged in: ACTION=="add", SUBSYSTEM=="tty",
    ENV{ID_SERIAL}=="its serial", RUN+="/bin/stty -F /dev/%k 0". The kernel keeps that speed
    until the port goes away: from then on, an open moves no line, and only the Morse moves
    the keyed one. morsetorch cannot tell what its open did to a port
    another program also holds open at the time, and drops both lines after it.

    Wiring: a USB-serial adapter's DTR and RTS swing between about -6 and +6 V (RS-232) or are
    3.3 or 5 V logic outputs, active low on the adapter's pin (the kernel's "raised" is the
    pin's low): either way, key through a transistor or an optocoupler, never straight into a
    radio's key jack. A radio's key input: an NPN transistor (2N2222) with its base on DTR
    through 4.7 kilohm, a diode from ground to the base against negative swings, collector to
    the key's tip, emitter to its sleeve. A relay module: its IN on the line, with
    --active-low for a module that switches on low. If the sender is killed, the kernel's
    close drops DTR and RTS (HUPCL) unless another program still holds the port (a PTT
    program): the next command (`status`, `stop`, a `send`) opens the port again and puts
    them back as found.

    Receiving: `morsetorch receive --serial PORT:LINE` reads a straight key or a light
    sensor on one of the port's status lines, LINE cts, dsr, dcd or ri; a raised line is a
    mark (--active-low: a dropped one). Each change is timed as the kernel's modem-status
    interrupt wakes morsetorch, which never polls: at once on a 16550, after the adapter's
    own latency on USB (an FTDI's latency_timer, 16 ms unless lowered). Wiring: the open
    raises DTR and RTS (unless the port's speed is 0), so a key between DTR and CTS (pins 4
    and 8 of a DE-9) raises CTS while it is closed, and an open RS-232 input reads dropped; on
    a 3.3 or 5 V adapter, a key from CTS to ground does the same. receive sets no line and
    takes no lock, and leaves the port as it found it; an open of a port that a sender keys
    raises its lines too, so start receive first, or set the port's speed to 0.
    """

  static let sound = """
    --sound [DEVICE] plays the Morse as a tone, \(SendPlan.defaultTone) Hz unless --tone says
    otherwise (\(SendPlan.toneRange.lowerBound) to \(SendPlan.toneRange.upperBound)), each edge
    shaped over \(Int(ToneSynthesizer.Settings().ramp * 1000)) ms along a raised cosine so that
    nothing clicks. It plays through `aplay` (package alsa-utils), which morsetorch starts and
    feeds: on a desktop its default device is the sound server (PipeWire or PulseAudio), on a
    Raspberry Pi OS Lite the first card. DEVICE is a name `aplay -L` lists
    (plughw:CARD=Headphones); `morsetorch list --sound` lists the cards. Without aplay, or without the
    device, the send exits 69 and says which; a device another program holds is 75; a user
    outside group audio (and outside a desktop session) is told how to join it.

    With other devices (--sound --led capslock, --sound --serial ttyUSB0), each edge of the
    tone is heard as the light or the line moves: the sound is heard later than it is made, by
    what aplay's buffer and the pipe to it hold (measured as it starts, about 60 to 100 ms),
    and every other device is held back by as much, at absolute deadlines. A desktop's sound
    server adds a delay of its own that morsetorch cannot see (a few tens of milliseconds at
    most). A stop silences the tone at once; a transmission that ends plays its last mark
    out. Nothing of the sound outlives its sender: killed, it leaves aplay the little it
    holds, which it plays and ends. `send --dry-run --wav FILE` writes the same sound to a file
    at once.
    """
}
