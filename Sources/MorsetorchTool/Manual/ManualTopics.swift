import LinuxSystem
import MorseCore

/// The manual's reference sections on how the tool behaves (after COMMANDS and OPTIONS, which
/// are made from the commands' own help): each a heading and its paragraphs, plain text with
/// `code` in backquotes, as `ManPage` sets them.
enum ManualTopics {
  /// The sections, in the order the manual prints them.
  static let sections: [(heading: String, text: String)] = [
    ("ONE TRANSMISSION PER DEVICE", oneTransmission), ("TIMING", timing),
    ("ENCODING", encoding), ("GPIO", gpio), ("SERIAL", serial), ("SOUND", sound),
    ("RECEIVING", receiving), ("BEACON", beacon),
  ]

  static let oneTransmission = """
    Only one transmission runs on an LED, GPIO line, serial port or sound device at a time,
    across processes and users:
    each device has a lock, a state record and a stop socket in the runtime directory
    (/run/morsetorch, else /var/run/morsetorch, else $XDG_RUNTIME_DIR/morsetorch, else
    /tmp/morsetorch-UID; FILES, SECURITY). Where no systemd-tmpfiles makes /run/morsetorch at
    boot (sysvinit, a chroot, a container), root's first command makes it; until then a member
    of the group sends from a directory of her own, and `send` warns that other users cannot
    see it there. `status`, `stop` and a rerun look in each of those places, so a
    transmission of your own is found wherever it started.

    A `send` on a busy device is an off switch: it cancels the transmission there (the device
    goes back as it was), prints what it cancelled and exits 4 without sending its own text,
    so running the same command again stops it. With --replace it cancels and then sends;
    with --wait (or --queue) it waits its turn, first come, first served, and `stop` cancels
    the waiters too. A transmission on several devices (--led given more than once, a
    pattern, or devices of several kinds: --led capslock --serial ttyUSB0) holds all of them
    or none, and `status` and `stop` on any one of them see all.

    `morsetorch status` lists what is being sent, on which device, in which state (sending,
    waiting for input, or stopped by Ctrl-Z or SIGSTOP), by which process, user and systemd
    service (a boot beacon), and how far along; `morsetorch stop` cancels it (every device
    without --led, --gpio, --serial or --sound). A rerun that cancels a beacon names its
    service, which stays stopped until `systemctl start` starts it again.
    They exit 3 when nothing is being sent. A cancelled sender exits 143, as for SIGTERM.

    A sender killed with SIGKILL (or by a crash or power loss) cannot put its device back; it
    leaves its state record, and the next `send`, `status` or `stop` on that device restores
    the trigger and brightness (or drives the line inactive) from it, saying so.
    """

  static let timing = """
    ITU timing: a dot is one unit, a dash three, the gap inside a character one unit, between
    characters three and between words seven. One unit is 1200/WPM milliseconds (PARIS is
    50 units); the default, 12 WPM, is a 100 ms dot. --unit gives the unit directly.
    --farnsworth S keeps the characters at --wpm and stretches the letter and word gaps so
    that the overall speed is S words per minute.

    Every edge is switched at an absolute deadline on the monotonic clock (the start plus the
    lengths of the steps before it), never a duration after the previous write, so errors
    never add up over a message, a --repeat or a --loop that runs for days. A cancel wakes
    the waiting step at once. A step that starts late never makes an element shorter than
    three quarters of its length: the steps after it make up the lateness a little at a
    time. A step more than two units (at least 2 ms) late, as after a stall or Ctrl-Z and
    fg, moves the rest of the message instead, which keeps its rhythm.

    The thread that keeps the deadlines asks for the least timer slack, SCHED_FIFO priority 10
    (root, CAP_SYS_NICE or an RLIMIT_RTPRIO of 10) and locked memory (root, CAP_IPC_LOCK or
    a large enough RLIMIT_MEMLOCK); what the user has no right to, it goes without, and
    nothing is said. Memory is not locked under a memory cgroup limit (its own or one above
    it, as MemoryMax= sets) smaller than \(Int(1 / TimingPriority.largestLockedShareOfLimit))
    times what locking could hold (the executable's size, or what it holds if more): locked
    pages cannot be reclaimed, and under such a limit its OOM killer would pick the sender for
    them. Timing under a tight limit then depends on the executable's pages staying in memory.
    `--dry-run` prints the timeline (`--edges`: the edges) at once without touching a device.
    """

  static let encoding = """
    Text is UTF-8, in any case and any Unicode normalization. Letters A to Z and É, figures
    and the punctuation . , : ? ' - / ( ) " = + @ are sent as in ITU-R M.1677-1; a documented
    set of extensions (! $ & ; _ and national letters such as Ä Ö Ü Ñ), Cyrillic and Greek
    letters have signals of their own; other characters that logs and shells print are sent
    as the signals they stand for (% as 0/0, brackets as ( ), * as X, # as NR, | and \\ as /),
    and so is pasted typography (… as ..., dashes and the minus sign as -, « » „ as "), and
    the degree sign as the word DEG (20°C is sent 20 DEG C). `morsetorch alphabet` lists every
    one. A Latin letter with a mark and no signal of its own (ï, Ł, ş) is sent as its letter.
    Where several share a code, `decode` and `receive` print an ITU character first, then an
    ITU procedural signal (...-. as <VE>, understood; .-... as <AS>, wait), then the first
    extension the alphabet lists (.-.- as Ä).

    Spaces, tabs and line breaks separate words (a run of them is one word gap). Prosigns are
    written in angle brackets and sent without letter gaps: <SK>, <AR>, <BT>, <KN>, or any
    letters (<SOS>). In TEXT given on the command line, a character with no signal is an
    error naming it and its line and column (65) before anything is sent, unless
    --skip-unknown drops it with a warning; invalid UTF-8 is an error naming the byte's
    position. A stream from standard input (`journalctl -f | morsetorch send`) never ends on
    one: terminal control sequences (the colours of systemd's messages) are no text and are
    dropped, and a character with no signal, or a byte that is not UTF-8, is skipped with one
    warning the first time it comes. Control sequences are read as a terminal reads them
    (ECMA-48), across the pieces of a long line, but each line on its own: one its line does
    not finish ends with it. A control string (OSC, DCS, SOS, PM, APC) over
    \(ControlSequenceFilter.stringLimit) characters, or any other sequence over
    \(ControlSequenceFilter.sequenceLimit), is said once and still dropped to its end.
    """

  static let receiving = """
    `morsetorch receive` reads Morse from \(SourceOption.phrases):
    key-down and key-up edges from a GPIO input line (with the kernel's timestamps), a serial
    port's status line (SERIAL, above) or a file, or a light in a video (--video) or seen by a camera (--camera), below. It prints
    the text as it comes, a few characters behind (from a file, each line once it ends,
    below), a space at a word gap and a line break after
    4 s of silence (or twice the word gap, for a slow sender). A key goes from the pin to ground with --active-low --bias pull-up; a
    light sensor's output works the same way.

    The edge file has one edge per line, SECONDS LEVEL, seconds from any origin and the level
    1 (on, key down) or 0; blank lines and lines starting with # are ignored. `morsetorch
    send --dry-run --edges` writes that form, so a message can be checked without hardware.

    The receiver finds the sender's speed from the first dot and dash (--wpm is where it
    starts, \(ReceiverSpeeds.spelled)) and follows it between \(ReceiverSpeeds.range.lowerBound) and \(ReceiverSpeeds.range.upperBound) WPM: a signal lamp or a torch flashed by
    hand keys at 1-5 WPM, dots of a second and letters seconds apart, and every rule in time
    scales with the speed found. It tells dots from dashes by the marks' own two lengths (a
    lamp's dash may be only twice its dot), the end of a character by where the gaps step up
    from the gaps inside letters (a lamp's shutter may be dark for a tenth of a dot between
    elements, a frame or two of video), and letter gaps from word gaps by their own lengths
    (the last dozen, in two groups), so Farnsworth spacing reads right, and so does a hand
    whose word gap is only 1.5 times its letter gap. From a slow hand (a dot over 0.2 s, who
    may pause twice as long between letters) it waits for three gaps between characters
    before it prints the first, so the first letter gaps are not taken for word gaps. A hand
    whose gap inside a character after a dash is half as long again as after a dot (a screen
    flashed by an app holds each gap as long as the mark before it, so the gaps inside an O
    are as long as its letter gaps) is read a word at a time where a gap fits both: the word
    is held until its word gap, then cut where the gaps' lengths and how often letters come
    in English text say likeliest (SOS, not STTTS or ST7; TE and N such a hand keys alike).
    An even hand is never held. That speed is what the trace and the live view show while a
    line is read, and what the text is read by, below.

    The text is read by the sender's own timing, learned from the line being read. A
    regular file (--edges FILE, --video FILE, or - with a file as standard input) is read a
    line at a time, whole. A pin, a camera, a FIFO or a pipe (a video piped through ffmpeg
    too) is read as it comes: the first 40 marks of a line (about ten characters) are held
    until the timing is learned from them, then each reading (every 8 marks) prints all but
    the last 16 marks (about four characters), which what follows may still change; a pause
    of twice the word gap (before the timing is learned, three times the longest gap of the
    line, or of a word gap at the speed followed) prints what is held, and so does the end
    of the line. A sender's speed jump noticed within the last 32 marks is not read past
    until it is known to last. With --show the text held is shown in brackets after the
    text printed, as it would read then. Learning the timing: its marks fall in two groups
    of length and its gaps in one to three (a message may have no word gap at all), in the sender's own
    proportions, not 1:3:7. Each way the groups may be taken (the upper gaps as letter gaps
    or as word gaps; a lone length of mark as dots or as dashes; --wpm and --farnsworth as
    the timing they say, each group as spread as its lengths) is refined on what it reads
    and scored whole: each length by how well it fits its class, each letter by how often it
    comes in text, each timing by how far its ratios stray from the standard's (a hand that
    lingers after a dash as long as between letters, which keys TE as N, is taken as one in
    ten thousand). A file's best reading is printed when the line ends (a line of over 2048
    marks, a stretch at a time). So a slow lamp whose threshold
    cuts its marks short and stretches its gaps, a hand whose letter gaps are six dots with
    no word gap, and Farnsworth spacing with no hint read right. Lengths are weighed against
    the speed followed near each mark, so a sender who speeds up or slows down keeps one
    timing, and one whose speed jumps (noticed as it is read) starts a stretch of its own
    from the word it began, if it keys 32 marks or more. Pulses and gaps under 5 ms are contact
    bounce; once the speed is known, a flash in a gap or a dropout inside a mark under 0.4 dot
    (at most 20 ms) is noise, and one odd mark barely moves the speed it follows. On a light
    with such noise (3-8 ms flashes every few seconds, 3 % of the marks cut by 5-15 ms) and
    10 % jitter it reads 12, 20 and 30 WPM without an error in the tests. A code with no
    meaning prints as its dots and dashes in brackets ([......]); prosigns print in angle
    brackets, each a word of its own (<SOS> <SOS>, 73 <SK>); --alphabet reads letters as Cyrillic or Greek. --edges-out FILE writes the edges
    it saw, from any source, in the edge file's form, so a hard case can be kept and replayed.
    A FIFO as FILE needs its reader started first: with none, receive refuses it at once
    (status 73) rather than wait in open(2); while a reader lags, a signal or --timeout still
    ends the receive. In an edge file a # comment line may be any length (it is skipped as it
    is read); an edge line longer than 4096 bytes is a bad line (status 65).

    A reading can look right and be wrong, and standard error says so, each reason once,
    with what to try. The doubt comes from the reading itself: each character printed is
    sure when the reading is over twenty times likelier than the likeliest that reads it
    otherwise (a dot for a dash, a gap inside a letter for one between letters or words, or
    another way the timing may be); at the end, when over a quarter of the characters were
    not sure or are codes with no meaning, the text is doubtful (a light
    switched at random, another light found, marks run together; give the sender's speed
    with --wpm, its spacing with --farnsworth, the light's place with --region). Two more
    reasons: characters read at a speed at either end of the range (up to 1.25 WPM, or from
    50 WPM: a dash taken for a dot, flicker read as Morse; said as soon as it is read), and
    at the end, marks of more than two lengths (over six dots long at the speed followed,
    over a tenth of the marks and at least three: a light left on). Where the light was
    found raises no doubt: a narrow picture's light is at its edge, a flashed screen fills
    it. A doubtful reading exits with status 0. When nothing at all was read (no light
    found, no frame, no edge, no character, or --timeout before any), the exit status is 5,
    and standard error says why; a reading stopped by a signal exits with the signal's
    status whatever it read.

    From light: --video FILE reads a video file of any format ffmpeg decodes (an MP4 from a
    phone: `morsetorch receive --video clip.mp4`). ffmpeg is run to decode it (its first
    video stream, every frame as the file has it), and each frame is timed by its own
    timestamp, so a phone's variable frame rate is followed as recorded: no frame is repeated
    where the phone left one out. What remains of that limit is the recording's own: a mark
    or a gap shorter than the frames missing there is not seen. Without ffmpeg installed, such
    a file is refused (69) naming the package to install (ffmpeg); what ffmpeg cannot decode
    is 65, in ffmpeg's words. A YUV4MPEG2 file, and standard input (-, which is always read as
    YUV4MPEG2: `ffmpeg -i clip.mp4 -pix_fmt yuv420p -f yuv4mpegpipe - | morsetorch receive
    --video -`), are read as they are, each frame timed by the header's one frame rate.
    Frames are read as fast as they come, or, with --show, each at its own time from the
    first, so that the view can be watched (--fast: as fast as they come even then). A
    camera's frames are timed by the kernel. Parameters
    after a FRAME word are ignored (the line may be up to 4096 bytes); a header that gives a
    tag twice (two W tags) is refused, naming the tag (status 65). Only the
    picture's brightness (luma) is used. The light is found on a grid of blocks of
    about 80 across: the block (alone, or with the eight around it, for a light that moves)
    whose brightness has the most sharp changes and marks of two lengths, as Morse has dots
    and dashes; a steady lamp does not change and a heartbeat or power LED has marks all
    alike, so neither is taken, however bright. A change is sharp when it crosses half the
    light's range within three frames, or, between a mark and a gap that last longer,
    within half the shorter of them (at most 8 frames): a lamp whose filament takes a fifth
    of a second or more to light and to go dark, keyed slowly, is found, and where most of
    its edges are that slow, the frames on its way up or down are not taken for its dark or
    bright level. What it sent before
    it was found is read from the frames kept, from the last dark stretch of 4 s or more
    before the frames it was found in (a light on long before is no part of the message),
    and a light already on at the first frame, lit half as long again as any mark after it,
    is no mark (a lamp on when the recording began, then switched off to send).
    A mark is when the light is brighter: a spot
    that blinks the message upside down, its longest lit runs longer than its longest dark
    ones (a wall that the camera's exposure darkens while a torch beside it is on), is not
    the light. With --active-low a mark is when the light is darker (a lamp lit while idle,
    shuttered or dimmed to send): the picture is read as its negative, with or without
    --region. Where the whole picture changes (a room's light flickering with the frame
    rate, an exposure that moves), the light is also looked for with that change taken out
    of every block, but a spot found so must brighten by itself over its marks: when the
    light fills the picture or lights the room, that change is the message, and what is
    left of a black bar or a corner it lights less is its negative. The blocks that brighten
    with it form the spot, looked at again every half second over the last 8 s, so a shaking
    camera is followed. A light carried across the picture, or a camera panning or shaking by
    ten pixels or so, moves further than that between two looks: when its last mark lit most
    two blocks from the spot's middle, the spot becomes the blocks up to two from there, and
    follows each mark for two seconds after it last moved (about 15 pixels a second at 640x480
    is the most followed; faster, it is lost and found again). The last 16 s are kept, so a lamp at 1 WPM is found (a dot and a
    dash take that long) and what was sent before the light was found is read too. --region X,Y,W,H says
    where the light is instead. Standard error says where the light was found, when it moved
    and when it was lost (no edge for 10 s and nothing else blinking), and at the end when
    none was found at all (a flickering, moving or busy picture can hide a small light: name
    its place with --region).

    Sub-frame timing: a frame integrates the light over its exposure, so the frame in which
    the light came on is partly bright, in proportion to the part of the exposure it was on;
    the edge is placed there, and the levels follow a drifting exposure. An edge between two
    frames none of which is partly lit, or hidden by missing frames, is placed in the middle
    of the time unseen. So a mark or a gap that lasts a frame or more is timed to a few
    milliseconds, and one shorter than half a frame is not seen. With each frame exposed for
    the whole frame interval (as video is; a short exposure sees less of each edge), 30 WPM
    (a 40 ms dot, 1.2 frames) reads exactly at 30 frames a second, and 60 WPM, the
    receiver's fastest, at 60; whole frames alone would time each edge only to 33 ms.

    From a camera: --camera DEVICE reads a V4L2 capture device (/dev/video0), or with no
    DEVICE the first one that captures, streams and gives a picture whose brightness can be
    read: GREY, NV12, NV21, YUV420 (YU12, YV12) or packed 4:2:2 (YUYV, YVYU, UYVY, VYUY), the
    uncompressed formats of webcams and camera pipelines; a camera that offers only MJPEG or
    H.264 is named with what it offers (read it through ffmpeg, below). It asks for
    640x480 at 30 frames a second (--size WxH, --fps N; the driver may choose another size or
    rate, and standard error says what it chose), streams through four memory-mapped buffers
    and times each frame by the kernel's timestamp. While it reads, it turns automatic
    exposure off (manual exposure, no lowering of the frame rate for it), sets a fixed
    exposure of half the frame interval (a bright light stays sharp and the room dims; the
    sub-frame timing is told that exposure) and turns automatic gain off, each where the
    device has the control and takes the value. At the end, and after a signal, each control
    changed is put back, the last changed first; one that cannot be put back is named, with
    exit status 74. A camera another program uses is busy (75); no camera, or none that will
    do, is 69, naming each video device and why it will not do; no permission is 77 (the
    devices belong to group video: `sudo usermod -aG video $USER`, then log in again).

    A camera --camera cannot take is read through ffmpeg and --video -, timed by the rate
    the pipe's header gives (not the kernel's timestamps), with whatever exposure the camera
    chooses. A Raspberry Pi camera through libcamera: `rpicam-vid -t 0 --codec yuv420
    --width 640 --height 480 --framerate 30 -o - | ffmpeg -f rawvideo -pix_fmt yuv420p -s
    640x480 -r 30 -i - -f yuv4mpegpipe - | morsetorch receive --video -` (the size and rate
    the same in both). A webcam that offers only MJPEG: `ffmpeg -f v4l2 -input_format mjpeg
    -video_size 1280x720 -i /dev/video0 -pix_fmt yuv420p -f yuv4mpegpipe - | morsetorch
    receive --video -`. A phone streaming video over the network (an IP camera app):
    `ffmpeg -i http://PHONE:8080/video -pix_fmt yuv420p -f yuv4mpegpipe - | morsetorch
    receive --video -`, PHONE its address and the path as the app gives it.

    A picture of the reading: --trace FILE writes one SVG file at the end (also when a
    signal or --timeout stops the receive: what was seen until then). In rows of a minute
    (a read under a minute is one row, stretched to fit; the title says how many pixels
    make a second) it draws the level as received, 0 or 1 from a line or a file of edges, a
    light's brightness from frames (from when it was found), with the threshold it was read
    on or off by as a dashed line; under it each mark as the receiver classed it (a dot blue,
    a dash red) and each gap (inside a character grey, between characters green, between
    words purple, a silence that ended the line black), the first ones too, classed once the
    speed was known; the characters read under their marks; and the speed followed (in WPM,
    a line below, the row's slowest and fastest at its right), over a time axis in seconds
    from the row's start. From frames it also shows, right of the rows, a frame with the
    light on once it was found, small and grey, with a box where it was found, moved to or
    lost, and marks those moments in the rows (labels that would overlap are stacked). An
    hour of Morse makes a few megabytes.
    What is kept for the picture is bounded, however long the reading: at most 250000 levels
    (two an edge, one a frame; an hour and a quarter at 60 WPM, three and a half hours at 20
    WPM, over two hours of frames at 30 a second), some 13 MB at most. Past that the picture
    stops, and a line under it and a note on standard error say from when and how much was
    left out (the text read goes on, whole). The picture is written a row at a time, at the
    end. The file is opened before anything is read: one that cannot be created, a symlink
    or a FIFO is refused at once (status 73). With --trace - the picture goes to standard
    output and the text read is only in it.

    A live view: with --show (and --camera or --video), standard error shows what the
    camera sees, small and grey (each character two pixels, one over the other: in 24-bit
    colour when COLORTERM is truecolor or 24bit, in the 256-colour palette's greys when
    TERM names 256 colours, else, or with NO_COLOR, as ASCII characters from dark to
    bright), with a box around the spot the light is followed in; under it the light's level
    as a bar, | marking the threshold it is read on or off by, the speed followed and where
    the light is, and the end of the text read, what is held back in brackets as it would
    read then (`read: CQ CQ DE (N0CALL)`). It is redrawn in place five times a second
    of frames (a video is read as fast as it comes; the terminal is drawn at most 25 times a
    second), at most 80 columns by 30 rows and smaller to fit the terminal, following its
    size as it changes; notes are written above it. When standard output is the same
    terminal, the text read is held while the view is up and written once it is erased; at
    the end, after a signal or an error the view is erased, so the screen keeps the notes
    and the text, not the picture. Without a terminal on standard error, or with TERM=dumb,
    --show is refused (status 64) before the camera or video is opened.
    """

  static let beacon = """
    The package installs the systemd unit morsetorch-beacon@.service, a beacon on one LED from
    boot: `morsetorch send --loop --replace --led NAME $OPTIONS -- $TEXT`, the instance being
    the LED's name (`systemctl enable --now morsetorch-beacon@white:flash`). A name with "-"
    is escaped as systemd does: `systemctl enable --now "morsetorch-beacon@$(systemd-escape
    'platform::mic-mute')"`.

    Its configuration is /etc/morsetorch/beacon-NAME.conf, NAME the LED's real name even where
    the instance is escaped, in systemd's environment file format: TEXT= the text (default
    VVV) and OPTIONS= send's options (for example --wpm 15 --pause 10s; not --detach, which
    the unit refuses: systemd keeps the sender running). These files are yours: the package
    makes none, and `apt purge` leaves them. `systemctl stop` puts the LED back and
    counts as a success; so does a rerun or `morsetorch stop` on that LED, after which the
    beacon stays stopped. An LED that went away or was busy is tried again every 5 s; a wrong
    name or option, a permission or a runtime directory problem is not (`systemctl status`
    and `journalctl -u` show the message). For a GPIO line, override ExecStart with
    `systemctl edit` and --gpio CHIP:LINE, and set PrivateDevices=no.

    The unit is hardened (`systemd-analyze security` rates it about 1.5): it runs as root
    with only CAP_SYS_NICE and CAP_IPC_LOCK (SCHED_FIFO and locked memory for its timing),
    in group leds (without CAP_DAC_OVERRIDE, the lock files and stop sockets the members made
    are the group's to use), sees the file system read-only except /run/morsetorch, /sys and
    its own /tmp, has no
    network and no devices, and a system call outside its filter fails with EPERM rather
    than ending it.
    """
}
