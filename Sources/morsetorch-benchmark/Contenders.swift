import Foundation
import LinuxSystem

/// Builds one of the benchmark's C programs (Sources/morsetorch-benchmark/C) with `cc -O2`.
func buildC(_ name: String, into scratch: String) -> String? {
  let source =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/C/\(name).c"
  let output = scratch + "/" + name
  guard let compiler = which("cc") ?? which("gcc"),
    FileManager.default.fileExists(atPath: source),
    let pid = try? ChildProcess.spawn(
      compiler, arguments: [compiler, "-O2", "-Wall", "-o", output, source],
      environment: ProcessInfo.processInfo.environment, defaultSignals: []),
    (try? ChildProcess.waitForExit(pid)) == 0
  else { return nil }
  return output
}

/// Finds `program` on PATH.
func which(_ program: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(program)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}

func seconds(_ duration: Duration) -> String {
  String(format: "%.6f", Double(duration / .nanoseconds(1)) / 1_000_000_000)
}

/// Whether `python3` can import python-periphery.
func hasPeriphery(_ python: String) -> Bool {
  guard
    let pid = try? spawnQuietly(
      python, environment: ProcessInfo.processInfo.environment, ["-c", "import periphery"])
  else { return false }
  return (try? ChildProcess.waitForExit(pid)) == 0
}

/// The senders `compare` and `startup` run, in their order, each with what it lacks here.
func contenders(unit: Duration, text: String, scratch: String) throws -> [Contender] {
  let floor = buildC("floor", into: scratch)
  return [
    morsetorchContender(unit: unit, text: text),
    try shellLoopContender(scratch: scratch),
    relativeQueueContender(),
    try peripheryContender(scratch: scratch),
    floorContender(floor),
  ]
}

/// `morsetorch send` at `unit`.
func morsetorchContender(unit: Duration, text: String) -> Contender {
  let morsetorch = morsetorchPath
  let unitMilliseconds = String(Int(unit / .milliseconds(1)))
  return Contender(
    name: "morsetorch send",
    missing: FileManager.default.isExecutableFile(atPath: morsetorch)
      ? nil : "\(morsetorch) not built (swift build -c release)",
    command: { _, _ in
      [morsetorch, "send", "--led", "bench", "--unit", unitMilliseconds, "--", text]
    }
  )
}

/// What people write today: echo and sleep in a loop (sleep is a program: a fork and an exec
/// for every step).
func shellLoopContender(scratch: String) throws -> Contender {
  let shell = scratch + "/echo-sleep.sh"
  try """
  led=$1; shift
  state=255
  for duration in "$@"; do
    echo $state > "$led"
    sleep "$duration"
    if [ $state = 255 ]; then state=0; else state=255; fi
  done
  echo 0 > "$led"

  """.write(toFile: shell, atomically: false, encoding: .utf8)
  return Contender(
    name: "shell loop (echo, sleep)", missing: which("sh") == nil ? "no sh" : nil,
    command: { led, steps in
      [which("sh") ?? "/bin/sh", shell, led.brightness] + steps.map(seconds)
    }
  )
}

/// The original torch app's model, this benchmark's `relative-queue`: relative sleeps on a
/// serial queue.
func relativeQueueContender() -> Contender {
  Contender(
    name: "serial queue, relative sleeps", missing: nil,
    command: { led, steps in
      [CommandLine.arguments[0], "relative-queue", led.brightness]
        + steps.map { String($0 / .nanoseconds(1)) }
    })
}

/// python-periphery's LED opens /sys/class/leds/NAME itself: it runs in a mount namespace of
/// its own where the benchmark's LED directory is mounted there.
func peripheryContender(scratch: String) throws -> Contender {
  let python = which("python3")
  let periphery = scratch + "/periphery-led.py"
  try """
  import sys, time
  from periphery import LED
  led = LED("bench", True)
  state = True
  for duration in sys.argv[1:]:
      led.write(state)
      time.sleep(float(duration))
      state = not state
  led.write(False)
  led.close()

  """.write(toFile: periphery, atomically: false, encoding: .utf8)
  let unshare = which("unshare")
  var peripheryMissing: String?
  if python == nil {
    peripheryMissing = "no python3"
  } else if unshare == nil || getuid() != 0 {
    peripheryMissing = "needs root and unshare (util-linux) to show it an LED at /sys/class/leds"
  } else if !hasPeriphery(python ?? "") {
    peripheryMissing = "python-periphery is not installed (pip install python-periphery)"
  }
  return Contender(
    name: "python-periphery LED, time.sleep", missing: peripheryMissing,
    command: { led, steps in
      [
        unshare ?? "", "--mount", "--propagation", "private", "/bin/sh", "-c",
        "mount -t tmpfs benchmark /sys/class && mkdir /sys/class/leds && "
          + "mount --bind \"$0\" /sys/class/leds && exec \"$@\"",
        led.classDirectory, python ?? "", periphery,
      ] + steps.map(seconds)
    })
}

/// The floor, C/floor.c (`floor`: its build, nil when it could not be built): absolute
/// deadlines with clock_nanosleep.
func floorContender(_ floor: String?) -> Contender {
  Contender(
    name: "C, clock_nanosleep (floor)",
    missing: floor == nil ? "cannot build \(#filePath)/../C/floor.c (needs cc)" : nil,
    command: { led, steps in
      [floor ?? "", led.brightness, "255"] + steps.map { String($0 / .nanoseconds(1)) }
    })
}
