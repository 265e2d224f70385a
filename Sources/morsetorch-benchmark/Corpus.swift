import Foundation
import MorseCore
import MorseCorpus
import MorseReceiving

/// `corpus`: the receiver on the seeded corpus of `ReceiverCorpus` (ideal timing, hand
/// keying, speed changes, Farnsworth, bounce, a noisy light), beside two peer decoders fed the
/// same edges: unixcw's libcw (`C/peers/libcw-receive.c`) and multimon-ng's MORSE_CW on a
/// tone keyed by the edges (`C/peers/keyed-tone.c`); each with the sender's speed and without.
/// Prints the character error rate of each.

/// One way of decoding a message's edges file into text; nil when it could not run.
struct CorpusDecoder {
  /// The column's name.
  let name: String
  /// Why it cannot run here, or nil.
  let missing: String?
  /// The text it reads from the message whose edges are in the file, and the doubts it said
  /// of it (nil: it cannot say).
  let decode: (_ message: ReceiverCorpus.Message, _ edgesFile: String) -> Reading?

  struct Reading: ExpressibleByStringLiteral {
    var text: String
    var doubts: [String]?

    init(text: String, doubts: [String]? = nil) {
      self.text = text
      self.doubts = doubts
    }

    init(stringLiteral text: String) { self.init(text: text) }
  }
}

/// Everything the receiver makes of `edges`, as text: an unknown code (`[.-.-.-]`) as one
/// `?`, as libcw-receive prints it; and whether the reading doubted it (`ReadDoubts`), as
/// `receive` would say.
func morsetorchRead(_ edges: [MorseEdge], settings: MorseReceiver.Settings)
  -> (text: String, doubts: [String])
{
  var reading = MorseReading(receiver: MorseReceiver(settings: settings))
  var events: [MorseReading.Event] = []
  for edge in edges { reading.read(.edge(edge)) { events.append($0) } }
  events += reading.finish()
  let outputs = events.compactMap { if case .output(let output) = $0 { output } else { nil } }
  let doubts = events.compactMap { if case .doubt(let doubt) = $0 { "\(doubt)" } else { nil } }
  return (MorseCorpus.text(of: outputs, unknown: "?"), doubts)
}

/// multimon-ng's output with each code it could not map (`<.-.-_>`, `<ERR_9>`) as one `?`.
func multimonText(_ output: String) -> String {
  var text = ""
  var inside: String?
  for character in output {
    if character == "<" {
      inside = ""
    } else if character == ">", let code = inside {
      let isUnknown = code.allSatisfy { $0 == "." || $0 == "_" } || code.hasPrefix("ERR_")
      text += isUnknown ? "?" : "<\(code)>"
      inside = nil
    } else if inside != nil {
      inside!.append(character)
    } else {
      text.append(character)
    }
  }
  return text + (inside.map { "<" + $0 } ?? "")
}

/// Runs `program ARGUMENTS…` with `input` on its standard input and its output into
/// `output` (errors to /dev/null); its exit status, or nil when it could not start.
@discardableResult
func runFiltering(_ program: String, _ arguments: [String], input: String, output: String)
  -> Int32?
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  // Not FileManager.createFile: it writes by way of a temporary directory it leaves behind.
  guard let reading = FileHandle(forReadingAtPath: input),
    (try? Data().write(to: URL(fileURLWithPath: output))) != nil,
    let writing = FileHandle(forWritingAtPath: output)
  else { return nil }
  defer {
    try? reading.close()
    try? writing.close()
  }
  process.standardInput = reading
  process.standardOutput = writing
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  process.waitUntilExit()
  return process.terminationStatus
}

/// Builds one of the peer programs of `C/peers` with `cc -O2` and `libraries`.
func buildPeer(_ name: String, libraries: [String], into scratch: String) -> String? {
  let source =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/C/peers/\(name).c"
  let output = scratch + "/" + name
  guard let compiler = which("cc") ?? which("gcc"),
    FileManager.default.fileExists(atPath: source)
  else { return nil }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: compiler)
  process.arguments = ["-O2", "-Wall", "-o", output, source] + libraries
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  process.waitUntilExit()
  return process.terminationStatus == 0 ? output : nil
}

/// The six decoders of the table, those that cannot run here with their reason.
func corpusDecoders(scratch: String) -> [CorpusDecoder] {
  morsetorchDecoders() + libcwDecoders(scratch: scratch) + multimonDecoders(scratch: scratch)
}

/// morsetorch's receiver, told the sender's speed and not: as it reads a live source (as it
/// comes, a few characters held back) and as it reads a file (a line at a time), each by the
/// sender's own timing.
func morsetorchDecoders() -> [CorpusDecoder] {
  let settings = { (message: ReceiverCorpus.Message, isHinted: Bool, isFile: Bool) in
    var settings = MorseReceiver.Settings()
    if isHinted {
      settings.wordsPerMinute = message.wordsPerMinute
      settings.farnsworthWPM = message.farnsworthWPM
    }
    settings.lookAhead = isFile ? .wholeLine : .heldBack
    return settings
  }
  return [(false, true), (false, false), (true, true), (true, false)].map { isFile, isHinted in
    let name = "morsetorch\(isFile ? " file" : "") \(isHinted ? "hint" : "no hint")"
    return CorpusDecoder(name: name, missing: nil) { message, _ in
      let read = morsetorchRead(message.edges, settings: settings(message, isHinted, isFile))
      return CorpusDecoder.Reading(text: read.text, doubts: read.doubts)
    }
  }
}

/// libcw by way of C/peers/libcw-receive.c, told the sender's speed and not.
func libcwDecoders(scratch: String) -> [CorpusDecoder] {
  let libcw = buildPeer("libcw-receive", libraries: ["-lcw", "-lm"], into: scratch)
  let libcwMissing =
    libcw == nil
    ? "cannot build C/peers/libcw-receive.c (needs cc and libcw-dev: apt-get install libcw-dev)"
    : nil
  return [true, false].map { isHinted in
    CorpusDecoder(name: isHinted ? "libcw hint" : "libcw no hint", missing: libcwMissing) {
      message, edgesFile in
      // Told the speed as check.sh does: adaptive from it, primed (libcw's range 4-60).
      let wpm = min(max(Int(message.wordsPerMinute.rounded()), 4), 60)
      let arguments = isHinted ? ["--wpm", String(wpm), "--prime"] : []
      let output = edgesFile + ".libcw"
      guard runFiltering(libcw!, arguments, input: edgesFile, output: output) == 0,
        let text = readLossily(output)
      else { return nil }
      return CorpusDecoder.Reading(text: text)
    }
  }
}

/// multimon-ng's MORSE_CW on a tone keyed by the edges (C/peers/keyed-tone.c), told the
/// sender's speed and not.
func multimonDecoders(scratch: String) -> [CorpusDecoder] {
  let tone = buildPeer("keyed-tone", libraries: ["-lm"], into: scratch)
  let multimon = which("multimon-ng")
  let multimonMissing =
    multimon == nil
    ? "multimon-ng not found (apt-get install multimon-ng)"
    : tone == nil ? "cannot build C/peers/keyed-tone.c (needs cc)" : nil
  return [true, false].map { isHinted in
    CorpusDecoder(
      name: isHinted ? "multimon-ng hint" : "multimon-ng no hint", missing: multimonMissing
    ) { message, edgesFile in
      let audio = edgesFile + ".raw"
      if !FileManager.default.fileExists(atPath: audio) {
        guard runFiltering(tone!, [], input: edgesFile, output: audio) == 0 else { return nil }
      }
      // Told the dot as check.sh does: -d and -g, the dit and the gap unit (a letter gap is
      // over 2, a word gap over 5); with Farnsworth spacing the gap unit is a third of the
      // stretched letter gap, as morsetorch is told `farnsworthWPM`.
      let dit = 1200 / message.wordsPerMinute
      let gap = message.farnsworthWPM == nil ? dit : dit * message.fist.letterGapUnits / 3
      let told = [
        "-d", String(Int(dit.rounded())), "-g", String(Int(gap.rounded())),
      ]
      let arguments = ["-q"] + (isHinted ? told : []) + ["-a", "MORSE_CW", "-t", "raw", "-"]
      let output = edgesFile + ".multimon"
      guard runFiltering(multimon!, arguments, input: audio, output: output) == 0,
        let text = readLossily(output)
      else { return nil }
      return CorpusDecoder.Reading(text: multimonText(text))
    }
  }
}

/// The text of the file at `path`, a byte that is not UTF-8 (libcw's Latin-1 letters) as
/// U+FFFD: one character either way.
func readLossily(_ path: String) -> String? {
  FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

/// The edges file of `edges`, as `receive --edges` reads it.
func edgesFileText(_ edges: [MorseEdge]) -> String {
  edges.map { EdgeText.format($0) + "\n" }.joined()
}

/// A character error rate as a table cell: percent with one decimal.
func percentCell(_ errors: Int, _ sent: Int) -> String {
  sent == 0 ? "n/a" : String(format: "%.1f %%", Double(errors) * 100 / Double(sent))
}

/// One run of `corpus`: the decoders, where the edges files go, and the table.
struct CorpusRun {
  /// The table's columns.
  let decoders: [CorpusDecoder]
  let nameWidth = 33
  let cellWidth = 20
  let seed: UInt64
  let scratch: String
  /// BENCHMARK_CORPUS_DIR was given: the edges files (and the peers' outputs) stay.
  let keepsFiles: Bool
  /// BENCHMARK_VERBOSE was given: each message, and what each decoder read of it, printed.
  let verbose: Bool

  func row(_ name: String, _ cells: [String]) -> String {
    "| " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " | "
      + cells.map { $0.padding(toLength: cellWidth, withPad: " ", startingAt: 0) }
      .joined(separator: " | ") + " |"
  }

  /// The decoders that cannot run here, those with the same reason on one line; then the
  /// table's head.
  func printHead() {
    var reasons: [String] = []
    for decoder in decoders {
      guard let reason = decoder.missing, !reasons.contains(reason) else { continue }
      reasons.append(reason)
      let columns = decoders.filter { $0.missing == reason }.map(\.name)
      print("  \(columns.joined(separator: ", ")): n/a, \(reason)")
    }
    print(row("condition (characters)", decoders.map(\.name)))
    print(
      "|" + String(repeating: "-", count: nameWidth + 2) + "|"
        + decoders.map { _ in String(repeating: "-", count: cellWidth + 2) }
        .joined(separator: "|") + "|")
  }

  /// A row's cells: each column's character error rate, n/a where its decoder cannot run.
  func cells(_ counts: [ErrorCount]) -> [String] {
    decoders.indices.map { column in
      decoders[column].missing != nil
        ? "n/a"
        : percentCell(counts[column].errors, counts[column].sent)
          + (counts[column].failed ? " (failed runs)" : "")
    }
  }

  /// Every message of `condition` through each decoder that can run: the counts of each
  /// column, the characters sent and the gaps of the hand-keyed messages.
  func measure(_ condition: ReceiverCorpus.Condition) throws
    -> (counts: [ErrorCount], sentCharacters: Int, gaps: GapOverlaps)
  {
    var counts = [ErrorCount](repeating: ErrorCount(), count: decoders.count)
    var sentCharacters = 0
    var gaps = GapOverlaps()
    for (index, message) in ReceiverCorpus.messages(condition, seed: seed).enumerated() {
      let file = scratch + "/\(condition.rawValue)-\(index).edges"
      try edgesFileText(message.edges).write(toFile: file, atomically: false, encoding: .utf8)
      sentCharacters += normalizedForErrorRate(message.text).count
      if verbose {
        let fist = message.fist
        print(
          "    \(condition.rawValue) \(index): \(message.speed), dash \(fist.dashUnits), "
            + "letter gap \(fist.letterGapUnits), word gap \(fist.wordGapUnits), "
            + "jitter \(fist.jitter): \(message.text)")
      }
      if message.fist.jitter > 0 { gaps.add(message, index: index) }
      decode(message, file: file, label: "\(condition.rawValue) \(index)", into: &counts)
      for suffix in keepsFiles ? [".raw"] : ["", ".raw", ".libcw", ".multimon"] {
        try? FileManager.default.removeItem(atPath: file + suffix)
      }
    }
    return (counts, sentCharacters, gaps)
  }

  /// `message`, whose edges are in `file`, through each decoder that can run, its errors
  /// added to `counts`.
  func decode(
    _ message: ReceiverCorpus.Message, file: String, label: String,
    into counts: inout [ErrorCount]
  ) {
    for (column, decoder) in decoders.enumerated() where decoder.missing == nil {
      guard let read = decoder.decode(message, file) else {
        counts[column].failed = true
        continue
      }
      let (errors, sent) = characterErrors(read: read.text, sent: message.text)
      counts[column].errors += errors
      counts[column].sent += sent
      if let doubts = read.doubts { counts[column].count(errors: errors, isDoubted: !doubts.isEmpty) }
      if verbose {
        let doubt = read.doubts.map { $0.isEmpty ? "" : " (doubted: \($0.joined(separator: "; ")))" } ?? ""
        print("    \(label) \(decoder.name): \(errors) errors\(doubt): \(read.text)")
      }
    }
  }
}

func runCorpus(seed: UInt64) throws {
  // BENCHMARK_CORPUS_DIR: keep the edges files (and the peers' outputs) there.
  let kept = ProcessInfo.processInfo.environment["BENCHMARK_CORPUS_DIR"]
  let scratch =
    kept ?? FileManager.default.temporaryDirectory.path + "/morsetorch-corpus-"
    + UUID().uuidString
  try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  defer { if kept == nil { try? FileManager.default.removeItem(atPath: scratch) } }
  let run = CorpusRun(
    decoders: corpusDecoders(scratch: scratch), seed: seed, scratch: scratch,
    keepsFiles: kept != nil,
    verbose: ProcessInfo.processInfo.environment["BENCHMARK_VERBOSE"] != nil)
  print(
    "corpus: seed 0x\(String(seed, radix: 16)), \(ReceiverCorpus.messageCount) messages of "
      + "\(ReceiverCorpus.wordsPerMessage) random words per condition; character error rate "
      + "(edit distance / characters sent, spaces and case normalised)")
  run.printHead()
  var totals = [ErrorCount](repeating: ErrorCount(), count: run.decoders.count)
  var overlaps: [String] = []
  for condition in ReceiverCorpus.Condition.allCases {
    let measured = try run.measure(condition)
    if let line = measured.gaps.line(condition) { overlaps.append(line) }
    for column in totals.indices { totals[column].add(measured.counts[column]) }
    print(run.row("\(condition.name) (\(measured.sentCharacters))", run.cells(measured.counts)))
  }
  let allSent = totals.map(\.sent).max() ?? 0
  print(run.row("all conditions (\(allSent))", run.cells(totals)))
  // How well the doubt note tells: said of readings with errors, not of exact ones.
  for (decoder, count) in zip(run.decoders, totals) where count.wrong + count.exact > 0 {
    print(
      "  doubted, \(decoder.name): \(count.doubtedWrong) of \(count.wrong) messages read "
        + "with errors, \(count.doubtedExact) of \(count.exact) read exactly")
  }
  for line in overlaps { print("  gaps: " + line) }
}
