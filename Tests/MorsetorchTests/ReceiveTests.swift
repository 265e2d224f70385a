import Foundation
import Glibc
import MorseTestSupport
import Testing

// `morsetorch receive`, and `send --dry-run --edges`, as processes.

private func run(
  _ arguments: [String], input: String = "", gpio: TemporaryGPIODirectory? = nil
) throws -> MorsetorchProcess.Outcome {
  let leds = try TemporaryLEDDirectory()
  return try MorsetorchProcess.run(
    arguments, ledsDirectory: leds.ledsPath, input: input,
    environment: gpio.map { $0.environment } ?? [:], tool: gpio == nil ? .shipped : .simulatedGPIO)
}

/// `receive --gpio` of a simulated line that gives an E, then stays quiet until SIGTERM,
/// with `options` besides.
func receiveAnETermed(_ options: [String] = []) throws -> MorsetorchProcess.Outcome {
  let gpio = try TemporaryGPIODirectory()
  try gpio.addChip(0, label: "sim", lines: 8)
  let edges = try run(["send", "--dry-run", "--edges", "--unit", "20", "E"]).standardOutput
  try edges.write(toFile: gpio.chipPath(0) + "/line1/edges", atomically: false, encoding: .utf8)
  let leds = try TemporaryLEDDirectory()
  let child = try MorsetorchProcess(
    ["receive", "--gpio", "sim:1"] + options, ledsDirectory: leds.ledsPath,
    environment: gpio.environment, tool: .simulatedGPIO)
  child.closeInput()
  // The signal goes once the E is read, so the handlers are surely in place (a fixed pause
  // was too short under qemu-aarch64); the line then stays quiet until the signal.
  let hasRead = eventually(within: .seconds(20)) { child.standardOutputSoFar.contains("E") }
  try #require(hasRead, "the E was never read")
  child.send(signal: SIGTERM)
  return try child.wait()
}

@Suite("receive, as a process")
struct ReceiveTests {
  @Test(arguments: [1, 2, 5, 13, 20, 35, 60])
  func whatSendWritesAsEdgesReceiveReadsBack(wpm: Int) throws {
    let text = "CQ CQ DE N0CALL, 73 <SK>"
    let edges = try run(["send", "--dry-run", "--edges", "--wpm", "\(wpm)", text])
    #expect(edges.exitStatus == 0, "\(edges)")
    #expect(edges.standardOutput.hasPrefix("0.000000 1\n"), "\(edges)")
    let read = try run(["receive", "--edges", "-"], input: edges.standardOutput)
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == text + "\n", "\(read)")
  }

  @Test(arguments: [[], ["--pause", "700ms"], ["--pause", "2s"]])
  func theRoundsOfARepeatAreReadBackAsWordsOfTheirOwn(pause: [String]) throws {
    let edges = try run(["send", "--dry-run", "--edges", "--repeat", "2"] + pause + ["X"])
    #expect(edges.exitStatus == 0, "\(edges)")
    let read = try run(["receive", "--edges", "-"], input: edges.standardOutput)
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "X X\n", "\(read)")
  }

  @Test(arguments: ["0s", "0ms", "300ms", "699.999ms"])
  func aPauseShorterThanAWordGapIsRefusedNamingTheShortest(pause: String) throws {
    let edges = try run(["send", "--dry-run", "--edges", "--repeat", "2", "--pause", pause, "X"])
    #expect(edges.exitStatus == 64, "\(edges)")
    #expect(edges.standardOutput.isEmpty, "\(edges)")
    #expect(edges.standardError.contains("--pause '\(pause)'"), "\(edges)")
    #expect(edges.standardError.contains("at least a word gap, 700ms at this speed"), "\(edges)")
  }

  @Test func aBadLineIsADataErrorNamingItAfterWhatWasRead() throws {
    let edges = try run(["send", "--dry-run", "--edges", "--unit", "50", "EE"]).standardOutput
    let read = try run(["receive", "--edges", "-"], input: edges + "# ok\n\nlater 1\n")
    #expect(read.exitStatus == 65, "\(read)")
    #expect(read.standardOutput == "EE\n", "\(read)")
    #expect(
      read.standardError.contains("edge line 7: \"later\" is not a time in seconds"), "\(read)")
  }

  @Test func nothingReadIs5SayingSoAndADoubtfulReadIs0SayingWhy() throws {
    let empty = try run(["receive", "--edges", "-"], input: "# no edges\n")
    #expect(empty.exitStatus == 5, "\(empty)")
    #expect(empty.standardError.contains("no Morse was read"), "\(empty)")
    let edges = try run(["send", "--dry-run", "--edges", "--wpm", "60", "PARIS PARIS"])
    let fast = try run(["receive", "--edges", "-"], input: edges.standardOutput)
    #expect(fast.exitStatus == 0, "\(fast)")
    #expect(fast.standardOutput == "PARIS PARIS\n", "\(fast)")
    let notes = fast.standardError.split(separator: "\n")
    #expect(notes.filter { $0.contains("doubtful: read at 60 WPM") }.count == 1, "\(fast)")
    #expect(notes.filter { $0.contains("doubtful") }.count == 1, "said once: \(fast)")
    #expect(fast.standardError.contains("--wpm N"), "\(fast)")
  }

  @Test func aFileThatCannotBeOpenedIs74() throws {
    let read = try run(["receive", "--edges", "/nonexistent/edges"])
    #expect(read.exitStatus == 74, "\(read)")
    #expect(read.standardError.contains("cannot open /nonexistent/edges"), "\(read)")
  }

  @Test(arguments: [
    [], ["--gpio", "gpiochip0:4", "--edges", "-"], ["--edges", "-", "--active-low"],
    ["--edges", "-", "--wpm", "100"], ["--edges", "-", "--timeout", "soon"], ["--edges", "-", "x"],
  ])
  func optionsThatDoNotFitAreUsageErrors(options: [String]) throws {
    let read = try run(["receive"] + options)
    #expect(read.exitStatus == 64, "\(read)")
  }

  @Test func aSimulatedKeyToGroundIsReadActiveLow() throws {
    let gpio = try TemporaryGPIODirectory()
    try gpio.addChip(0, label: "pinctrl-bcm2711", lines: 28, names: [4: "GPIO4"])
    // The key pulls the line low when pressed: physical levels are inverted.
    let edges = try run(["send", "--dry-run", "--edges", "--wpm", "18", "SOS TEST"])
    let inverted = edges.standardOutput.split(separator: "\n").map { line -> String in
      let parts = line.split(separator: " ")
      return "\(parts[0]) \(parts[1] == "1" ? 0 : 1)"
    }
    try
      (["0 1"]
      + inverted.map { line in
        // After the line was high (released) for a moment.
        let parts = line.split(separator: " ")
        return "\(Double(parts[0])! + 1) \(parts[1])"
      }).joined(separator: "\n").write(
        toFile: gpio.chipPath(0) + "/line4/edges", atomically: false, encoding: .utf8)
    let read = try run(
      ["receive", "--gpio", "pinctrl-bcm2711:GPIO4", "--active-low", "--timeout", "3s"],
      gpio: gpio)
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "SOS TEST\n", "\(read)")
  }

  @Test func aLineInUseIs75() throws {
    let gpio = try TemporaryGPIODirectory()
    try gpio.addChip(0, label: "sim", lines: 8, consumers: [4: "gpio-keys"])
    let read = try run(["receive", "--gpio", "sim:4", "--timeout", "1s"], gpio: gpio)
    #expect(read.exitStatus == 75, "\(read)")
    #expect(read.standardError.contains("\"gpio-keys\""), "\(read)")
  }

  @Test func aSignalEndsTheLineAndExitsWithItsStatus() throws {
    let outcome = try receiveAnETermed()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by SIGTERM"), "\(outcome)")
    #expect(outcome.standardOutput == "E\n", "\(outcome)")
  }
}

/// A FIFO in a directory of its own that no one writes to.
private func fifoWithNoWriter(in leds: TemporaryLEDDirectory) throws -> String {
  let path = leds.root + "/edges.fifo"
  try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
  return path
}

/// Both sources that read a file or a pipe: edge lines and a YUV4MPEG2 video.
private let fileSources = ["--edges", "--video"]

@Suite("receive, waiting for input")
struct ReceiveWaitTests {
  @Test(arguments: fileSources)
  func aSignalEndsTheWaitForAFIFOWithNoWriter(source: String) throws {
    let leds = try TemporaryLEDDirectory()
    let fifo = try fifoWithNoWriter(in: leds)
    let child = try MorsetorchProcess(["receive", source, fifo], ledsDirectory: leds.ledsPath)
    child.closeInput()
    let isWaiting = eventually { child.hasOpen(fifo) }
    try #require(isWaiting, "the child never opened the FIFO")
    child.send(signal: SIGTERM)
    let outcome = try child.wait(timeout: .seconds(10))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by SIGTERM"), "\(outcome)")
  }

  @Test(arguments: fileSources)
  func theTimeoutEndsTheWaitForAFIFOWithNoWriter(source: String) throws {
    let leds = try TemporaryLEDDirectory()
    let fifo = try fifoWithNoWriter(in: leds)
    let outcome = try MorsetorchProcess.run(
      ["receive", source, fifo, "--timeout", "300ms"], ledsDirectory: leds.ledsPath,
      timeout: .seconds(10))
    #expect(outcome.exitStatus == 5, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty, "\(outcome)")
  }

  @Test(arguments: fileSources)
  func theTimeoutEndsTheWaitForASilentPipe(source: String) throws {
    let leds = try TemporaryLEDDirectory()
    // Standard input stays open and silent: the test never writes to it nor closes it.
    let child = try MorsetorchProcess(
      ["receive", source, "-", "--timeout", "300ms"], ledsDirectory: leds.ledsPath)
    defer { child.closeInput() }
    let outcome = try child.wait(timeout: .seconds(10))
    #expect(outcome.exitStatus == 5, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty, "\(outcome)")
  }
}

@Suite("receive into a closed pipe")
struct ReceiveIntoAClosedPipeTests {
  @Test func aClosedStandardOutputEndsTheListeningWithAnError() throws {
    let gpio = try TemporaryGPIODirectory()
    try gpio.addChip(0, label: "sim", lines: 8)
    let edges = try run(["send", "--dry-run", "--edges", "--unit", "20", "E E E"]).standardOutput
    try edges.write(toFile: gpio.chipPath(0) + "/line1/edges", atomically: false, encoding: .utf8)
    let leds = try TemporaryLEDDirectory()
    // Standard output closed: the first write fails; listening must end then (74), not run on.
    let outcome = try MorsetorchProcess.run(
      ["receive", "--gpio", "sim:1"], ledsDirectory: leds.ledsPath,
      environment: gpio.environment, launch: .outputClosed, tool: .simulatedGPIO,
      timeout: .seconds(20))
    #expect(outcome.exitStatus == 74, "\(outcome)")
  }
}

/// `count` edges, alternating, 0.1 s apart, as `receive --edges` reads them.
private func edgeLines(_ count: Int) -> String {
  (0..<count).map { "\($0 / 10).\($0 % 10)00000 \(($0 + 1) % 2)\n" }.joined()
}

/// A FIFO and its read end, open (non-blocking) before any writer comes; the caller closes it.
private func fifoWithAReader(in leds: TemporaryLEDDirectory) throws -> (String, Int32) {
  let path = try fifoWithNoWriter(in: leds)
  let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
  try #require(reader >= 0, "open: \(String(cString: strerror(errno)))")
  return (path, reader)
}

/// The bytes waiting in a pipe's buffer (`FIONREAD`).
private func bytesWaiting(in descriptor: Int32) -> Int32 {
  var count: Int32 = 0
  return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? count : -1
}

@Suite("receive --edges-out FIFO")
struct ReceiveEdgesOutFIFOTests {
  @Test func aFIFONoProcessReadsIsRefusedAtOnce() throws {
    let leds = try TemporaryLEDDirectory()
    let fifo = try fifoWithNoWriter(in: leds)
    let outcome = try MorsetorchProcess.run(
      ["receive", "--edges", "-", "--edges-out", fifo], ledsDirectory: leds.ledsPath,
      input: edgeLines(4), timeout: .seconds(10))
    #expect(outcome.exitStatus == 73, "\(outcome)")
    #expect(
      outcome.standardError.contains(
        "cannot write \(fifo) (--edges-out): no process is reading this FIFO; start its reader "
          + "first"), "\(outcome)")
  }

  @Test func theManualSaysAFIFONeedsItsReaderFirst() throws {
    let manual = try run(["help", "--man"])
    let text = manual.standardOutput.replacing(#"\-"#, with: "-")
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("(a FIFO needs its reader started first)"), "\(manual)")
    #expect(text.contains(".B 73 the --edges-out FILE cannot be created, or is a FIFO no process"))
    #expect(text.contains("# comments (of any length) ignored"), "\(manual)")
  }

  @Test func aFIFOWithAReaderGetsTheEdges() throws {
    let leds = try TemporaryLEDDirectory()
    let (fifo, reader) = try fifoWithAReader(in: leds)
    defer { close(reader) }
    let outcome = try MorsetorchProcess.run(
      ["receive", "--edges", "-", "--edges-out", fifo], ledsDirectory: leds.ledsPath,
      input: edgeLines(4), timeout: .seconds(10))
    #expect(outcome.exitStatus == 0, "\(outcome)")
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = read(reader, &bytes, bytes.count)
    #expect(
      String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        == "# morsetorch receive: SECONDS LEVEL\n" + edgeLines(4))
  }

  @Test func aSignalEndsTheWaitForAReaderThatReadsNothing() throws {
    let leds = try TemporaryLEDDirectory()
    // The reader holds the FIFO open and never reads: its 64 KiB fill, then the child waits.
    let (fifo, reader) = try fifoWithAReader(in: leds)
    defer { close(reader) }
    let edges = leds.root + "/edges.txt"
    try edgeLines(20_000).write(toFile: edges, atomically: false, encoding: .utf8)
    let child = try MorsetorchProcess(
      ["receive", "--edges", edges, "--edges-out", fifo], ledsDirectory: leds.ledsPath)
    child.closeInput()
    // Full (64 KiB less what does not fit the last page) and no longer filling: the child
    // waits. (Looked at until it holds still for 50 ms: a loaded machine writes the last bytes
    // late.)
    let isWaiting = eventually {
      let before = bytesWaiting(in: reader)
      usleep(50_000)
      return before >= 65_000 && bytesWaiting(in: reader) == before
    }
    try #require(isWaiting, "the FIFO never filled, or the child kept writing")
    child.send(signal: SIGTERM)
    let outcome = try child.wait(timeout: .seconds(10))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by SIGTERM"), "\(outcome)")
  }
}

@Suite("receive --edges, long lines and large files")
struct ReceiveEdgeFileTests {
  @Test func aCommentLineOfAnyLengthIsSkipped() throws {
    let edges = try run(["send", "--dry-run", "--edges", "--unit", "50", "PARIS"]).standardOutput
    let comment = "# " + String(repeating: "x", count: 100 * 1024) + "\n"
    let read = try run(["receive", "--edges", "-"], input: comment + edges)
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "PARIS\n", "\(read)")
  }

  @Test func anEdgeLineTooLongIsABadLineNamedByItsNumber() throws {
    let line = "1.5 1" + String(repeating: " ", count: 5000) + "x\n"
    let read = try run(["receive", "--edges", "-"], input: "0 1\n1 0\n" + line)
    #expect(read.exitStatus == 65, "\(read)")
    #expect(read.standardError.contains("edge line 3: longer than 4096 bytes"), "\(read)")
  }

  @Test func aFileOfManyBlocksReadsWhole() throws {
    // Over two blocks of 64 KiB of edges: lines cut where each block the input is read in ends.
    let text = String(repeating: "PARIS ", count: 400) + "END"
    let edges = try run(["send", "--dry-run", "--edges", "--wpm", "20", text]).standardOutput
    try #require(edges.utf8.count > 140_000)
    // A file (read whole): a pipe would be read as it comes, the same blocks at a greater cost.
    let leds = try TemporaryLEDDirectory()
    let path = leds.root + "/many.edges"
    try edges.write(toFile: path, atomically: false, encoding: .utf8)
    let read = try run(["receive", "--edges", path])
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == text + "\n", "\(read)")
  }
}

@Suite struct ReceiveFileTests {
  /// A file of edges is read a line at a time, by the sender's own timing: a hand filmed at
  /// 30 fps whose letter gaps are five to eight dots, with no word gap, reads as one word
  /// (read by the speed followed, each letter gap was a word gap: `M A S A T O`).
  @Test func aFileIsReadByTheSendersOwnTiming() throws {
    let leds = try TemporaryLEDDirectory()
    let frame = 1.0 / 30
    var (time, lines, index) = (1.0, "", 0)
    for code in ["--", ".-", "...", ".-", "-", "---"] {
      for (element, symbol) in code.enumerated() {
        index += 1
        lines += String(format: "%.4f 1\n", time)
        time += (symbol == "-" ? [5.0, 7, 9][index % 3] : 2) * frame
        lines += String(format: "%.4f 0\n", time)
        if element < code.count - 1 { time += [1.5, 3, 4][index % 3] * frame }
      }
      time += [11.0, 13, 16][index % 3] * frame
    }
    let path = leds.root + "/hand.edges"
    try lines.write(toFile: path, atomically: false, encoding: .utf8)
    let read = try run(["receive", "--edges", path])
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "MASATO\n", "\(read)")
    // From a pipe, read as it comes: the line is held until its timing is learned (or it
    // ends), so it reads the same.
    let piped = try run(["receive", "--edges", "-"], input: lines)
    #expect(piped.standardOutput == "MASATO\n", "\(piped)")
  }
}
