import Foundation
import LinuxSystem

/// Writes `megabytes` MB of random words (letters, figures, some punctuation; lines of about
/// 70 characters) to `path`, the same text for the same size every time.
func writeRandomText(megabytes: Int, to path: String) throws {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next(_ bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
  let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
  let punctuation = Array(".,?'/()=+-:@".utf8)
  let size = megabytes * 1_000_000
  var text: [UInt8] = []
  text.reserveCapacity(size + 100)
  var lineLength = 0
  while text.count < size {
    for _ in 0..<(1 + next(9)) { text.append(letters[next(letters.count)]) }
    if next(10) == 0 { text.append(punctuation[next(punctuation.count)]) }
    lineLength += 1
    if lineLength >= 10 {
      text.append(0x0A)
      lineLength = 0
    } else {
      text.append(0x20)
    }
  }
  text.append(0x0A)
  try Data(text).write(to: URL(fileURLWithPath: path))
}

/// One row of `throughput`: a command, the file it reads, and that file's size.
struct ThroughputRun {
  let label: String
  let command: [String]
  let input: String
  let megabytes: Int
}

func runThroughput(megabytes: Int) throws {
  let morsetorch = morsetorchPath
  guard FileManager.default.isExecutableFile(atPath: morsetorch) else {
    print("throughput: \(morsetorch) not found; build it first (swift build -c release)")
    return
  }
  let base =
    FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
  try withLauncher("throughput") { scratch, launcher in
    let small = base + "morsetorch-bench-\(megabytes)mb.txt"
    let large = base + "morsetorch-bench-\(megabytes * 10)mb.txt"
    let probe = base + "morsetorch-bench-1mb.txt"
    try writeRandomText(megabytes: megabytes, to: small)
    try writeRandomText(megabytes: megabytes * 10, to: large)
    try writeRandomText(megabytes: 1, to: probe)
    defer {
      for path in [small, large, probe] { try? FileManager.default.removeItem(atPath: path) }
    }
    print(
      "throughput: random words from a file in memory (\(base)), output to /dev/null; best of 3")
    let morse = ["/usr/games/morse", "/usr/bin/morse"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    var runs = [
      ThroughputRun(
        label: "morsetorch encode", command: [morsetorch, "encode"], input: small,
        megabytes: megabytes)
    ]
    if let morse {
      runs.append(
        ThroughputRun(
          label: "bsdgames morse -s", command: [morse, "-s"], input: small, megabytes: megabytes))
    } else {
      print("  bsdgames morse -s: skipped, not installed (apt-get install bsdgames)")
    }
    if let dryRun = try dryRunOrEstimate(
      morsetorch, large: large, probe: probe, megabytes: megabytes * 10, scratch: scratch,
      launcher: launcher)
    {
      runs.append(dryRun)
    }
    for run in runs { try printBestOfThree(run, scratch: scratch, launcher: launcher) }
  }
}

/// The dry run on the large file (`megabytes` MB) only when one pass over 1 MB (`probe`) says
/// it takes under a minute; otherwise nil, with the 1 MB figure printed and what the large file
/// would take.
func dryRunOrEstimate(
  _ morsetorch: String, large: String, probe: String, megabytes: Int, scratch: String,
  launcher: String
) throws -> ThroughputRun? {
  let dryRun = [morsetorch, "send", "--dry-run"]
  guard
    let first = try launch(
      dryRun, through: launcher, input: probe, report: scratch + "/usage.txt"),
    first.seconds * Double(megabytes) > 60
  else {
    return ThroughputRun(
      label: "morsetorch send --dry-run", command: dryRun, input: large, megabytes: megabytes)
  }
  print(
    "  morsetorch send --dry-run  1 MB in "
      + String(format: "%.2f s: %.2f MB/s of input", first.seconds, 1 / first.seconds)
      + ", peak RSS \(first.usage.peakResidentKilobytes) kB (one run; \(megabytes) MB "
      + String(format: "would take about %.0f s)", first.seconds * Double(megabytes)))
  return nil
}

/// Runs `run` three times and prints the fastest.
func printBestOfThree(_ run: ThroughputRun, scratch: String, launcher: String) throws {
  var best: LaunchedRun?
  for _ in 0..<3 {
    guard
      let result = try launch(
        run.command, through: launcher, input: run.input, report: scratch + "/usage.txt")
    else { continue }
    if best == nil || result.seconds < best?.seconds ?? 0 { best = result }
  }
  guard let best else { return }
  let rate = Double(run.megabytes) / best.seconds
  let exit = best.status == 0 ? "" : ", exit \(best.status)"
  print(
    "  \(run.label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(run.megabytes) MB in "
      + String(format: "%.2f s: %.1f MB/s of input", best.seconds, rate)
      + ", peak RSS \(best.usage.peakResidentKilobytes) kB\(exit)")
}
