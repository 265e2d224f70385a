import Foundation
import Glibc
import MorseTestSupport
import Testing

/// Output that cannot be written is an error, as in coreutils; a reader that went away is not.
@Suite struct ConsoleTests {
  private func shell(_ script: String, fixture: TemporaryLEDDirectory? = nil) throws -> (
    output: String, errors: String
  ) {
    let binary = try MorsetorchProcess.executablePath()
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/bash")
    shell.arguments = ["-c", script, binary]
    if let fixture {
      // The LEDs and runtime directory a `MorsetorchProcess` of the same fixture uses.
      shell.environment = [
        "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "MORSETORCH_LEDS_DIR": fixture.ledsPath,
        "MORSETORCH_RUNTIME_DIR": fixture.root + "/run",
      ]
    }
    let output = Pipe()
    let errors = Pipe()
    shell.standardOutput = output
    shell.standardError = errors
    try shell.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let complaints = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    shell.waitUntilExit()
    return (printed, complaints)
  }

  @Test(arguments: [["encode", "hello"], ["--help"], ["send", "--dry-run", "E"]])
  func aFullOutputIsAnErrorWithAMessage(arguments: [String]) throws {
    let words = arguments.joined(separator: " ")
    let (output, errors) = try shell("\"$0\" \(words) >/dev/full; echo \"status $?\"")
    #expect(output == "status 74\n")
    #expect(errors.contains("cannot write to standard output"), "\(errors)")
    #expect(errors.contains("ENOSPC"), "\(errors)")
  }

  @Test func listIntoAFullOutputIsAnErrorWithAMessage() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    let (output, errors) = try shell(
      "\"$0\" list >/dev/full; echo \"status $?\"", fixture: fixture)
    #expect(output == "status 74\n")
    #expect(errors.contains("cannot write to standard output"), "\(errors)")
    #expect(errors.contains("ENOSPC"), "\(errors)")
  }

  @Test(arguments: [">/dev/full", ">&-"])
  func statusIntoAFullOrClosedOutputIsAnErrorWithAMessage(redirection: String) throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash", trigger: "none [timer]")
    let sender = try MorsetorchProcess(
      ["send", "--led", "white:flash", "--unit", "300", "TTTTT"], ledsDirectory: fixture.ledsPath)
    sender.closeInput()
    let isClaimed = try eventually { try fixture.read("trigger", of: "white:flash") == "none\n" }
    try #require(isClaimed, "the transmission never claimed the LED")
    let (output, errors) = try shell(
      "\"$0\" status \(redirection); echo \"status $?\" >&2", fixture: fixture)
    #expect(output.isEmpty)
    #expect(errors.contains("cannot write to standard output"), "\(errors)")
    #expect(errors.hasSuffix("status 74\n"), "\(errors)")
    sender.send(signal: SIGTERM)
    #expect(try sender.wait().exitStatus == 143)
  }

  @Test func aClosedOutputIsAnErrorWithAMessage() throws {
    let (output, errors) = try shell("\"$0\" encode hello >&-; echo \"status $?\" >&2")
    #expect(output.isEmpty)
    #expect(errors.contains("EBADF"), "\(errors)")
    #expect(errors.hasSuffix("status 74\n"), "\(errors)")
  }

  @Test func encodeIntoAPipeClosedEarlyEndsQuietly() throws {
    let (printed, complaints) = try shell(
      "f=$(mktemp); printf 'SOS\\n%.0s' {1..100000} > \"$f\"; \"$0\" encode < \"$f\" | head -n 1; "
        + "echo \"status ${PIPESTATUS[0]}\"; rm -f \"$f\"")
    #expect(printed == "... --- ...\nstatus 0\n")
    #expect(complaints.isEmpty, "\(complaints)")
  }

  @Test func aStandardErrorNobodyReadsNeverHoldsTheTransmission() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("a", trigger: "none [timer]", attributes: ["delay_on": "100\n"])
    // Every line warns about 30 skipped characters: a pipe's worth of warnings within a
    // second. The FIFO's reader holds it open and never reads.
    let script = """
      export MORSETORCH_LEDS_DIR='\(fixture.ledsPath)' MORSETORCH_RUNTIME_DIR='\(fixture.root)/run'
      f='\(fixture.root)/fifo'; mkfifo "$f"
      sleep 30 3<"$f" >/dev/null 2>&1 & reader=$!
      line=$(printf '€%.0s' $(seq 30))E
      yes "$line" | head -n 3000 | "$0" send --led a --skip-unknown --unit 1 2>"$f" & pid=$!
      sleep 1.5; kill -TERM $pid
      for i in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
      if kill -0 $pid 2>/dev/null; then echo "still running"; kill -KILL $pid; fi
      wait $pid; echo "status $?"; kill -KILL $reader
      """
    let (output, _) = try shell(script)
    // Before: blocked in write(2) on the full pipe, it never saw SIGTERM; the LED stayed claimed.
    #expect(output.hasSuffix("status 143\n"), "\(output)")
    #expect(try fixture.read("trigger", of: "a") == "timer\n")
  }

  @Test func aLineWithoutNewlinesIsReadInPiecesAndEncodedOnOneLine() throws {
    // A megabyte of "CQ " with no newline: before, memory grew with the line and nothing
    // was done until the end of input.
    let (output, errors) = try shell(
      "yes 'CQ' | tr -d '\\n' | head -c 1000000 | \"$0\" encode | wc -l; "
        + "yes 'CQ DE' | tr -d '\\n' | head -c 100000 | \"$0\" encode --skip-unknown | head -c 60")
    #expect(!errors.contains("morsetorch"), "\(errors)")  // `head -c` makes yes and tr complain
    #expect(output.hasPrefix("1\n"), "one output line: \(output)")
    // "CQ DECQ DECQ …": the words as they are, though read in pieces.
    #expect(
      output.hasSuffix("-.-. --.- / -.. . -.-. --.- / -.. . -.-. --.- / -.. . -.-. -"), "\(output)")
  }

  @Test(arguments: [
    ("send --echo --loop --led a --unit 20 PARIS", ">/dev/full", "status 74"),
    ("send --echo --loop --led a --unit 20 PARIS", "| head -c 1 >/dev/null", "status 0"),
    ("send --preview --loop --unit 20 PARIS", ">/dev/full", "status 74"),
    ("send --preview --loop --unit 20 PARIS", "| head -c 1 >/dev/null", "status 0"),
  ])
  func anEchoOrPreviewNobodyReadsEndsTheTransmission(
    command: String, output redirection: String, status: String
  ) throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("a", trigger: "none [timer]", attributes: ["delay_on": "100\n"])
    let script = """
      { "$0" \(command) \(redirection); echo "status ${PIPESTATUS[0]}" > "$0.status"; } &
      for i in $(seq 100); do [ -s "$0.status" ] && break; sleep 0.1; done
      cat "$0.status" 2>/dev/null || { echo "still running"; pkill -KILL -f "$0 send"; }
      """
    // (the status file beside the executable would be shared: one per test case)
    let marker = fixture.root + "/run-status"
    let (output, errors) = try shell(
      script.replacingOccurrences(of: "$0.status", with: marker), fixture: fixture)
    // Before: it went on writing nowhere, for ever with --loop.
    #expect(output == status + "\n", "\(output) \(errors)")
    #expect(try ["none [timer]\n", "timer\n"].contains(fixture.read("trigger", of: "a")))
    #expect(try fixture.read("brightness", of: "a") == "0\n")
  }

  @Test func aLongLineOfCodeIsDecodedAsAWholeThoughReadInPieces() throws {
    // 400 words on one line of code, 32 KB: before, each 4 KiB piece was decoded alone, and
    // a word gap at the start of a piece was lost ("BROWNFOX"), with exit 0.
    let (output, errors) = try shell(
      "yes 'PARIS QUICK BROWN FOX' | head -n 400 | tr '\\n' ' ' | \"$0\" encode "
        + "| \"$0\" decode; echo \"status $?\"")
    #expect(!errors.contains("morsetorch"), "\(errors)")
    let words = output.split(separator: "\n").first?.split(separator: " ") ?? []
    #expect(words.count == 1600, "\(words.count) words")
    #expect(Set(words) == ["PARIS", "QUICK", "BROWN", "FOX"], "\(Set(words))")
    #expect(output.hasSuffix("status 0\n"), "\(output.suffix(40))")
  }

  @Test func aWordLongerThanAPieceIsEncodedAndSentWhole() throws {
    // One word of 20 KB on a line of standard input, read in 4 KiB pieces; the third cut
    // would split its prosign. Before: a word separator (encode) and a word gap (send)
    // where a piece was cut inside the word, and the prosign sent as "<S" and "K>".
    let (output, errors) = try shell(
      """
      word=$(printf 'E%.0s' $(seq 12286))'<SK>'$(printf 'T%.0s' $(seq 8000))
      [ "$(echo "$word" | "$0" encode)" = "$("$0" encode "$word")" ] && echo "encode whole"
      echo "$word" | "$0" encode | grep -c ' / '
      echo "$word" | "$0" send --dry-run --unit 1 | grep -c 'word gap'
      echo "$word" | "$0" send --dry-run --unit 1 | grep -o '(letter gap, the word goes on)' | uniq
      """)
    #expect(!errors.contains("morsetorch"), "\(errors)")
    #expect(output == "encode whole\n0\n0\n(letter gap, the word goes on)\n", "\(output)")
  }

  @Test(arguments: ["<&-", ">&- 2>&-", "<&- >&- 2>&-"])
  func closedStandardStreamsNeitherHangNorMixUp(redirections: String) throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("a", trigger: "none [timer]", attributes: ["delay_on": "100\n"])
    try fixture.addLED("b", trigger: "none")  // two LEDs: a note on which one is used
    let script = """
      export MORSETORCH_LEDS_DIR='\(fixture.ledsPath)' MORSETORCH_RUNTIME_DIR='\(fixture.root)/run'
      "$0" send --unit 2 SOS \(redirections) & pid=$!
      for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
      if kill -0 $pid 2>/dev/null; then echo "hung"; kill -KILL $pid; fi
      wait $pid; echo "status $?"
      """
    let (output, _) = try shell(script)
    // Before: with 0 closed, the signal pipe took descriptor 0 and the send hung holding the
    // LED; with 1 and 2 closed, the note went into that pipe and was read as signals.
    #expect(!output.contains("hung"), "\(output)")
    #expect(output.hasSuffix("status 0\n") || output.hasSuffix("status 74\n"), "\(output)")
    #expect(try fixture.read("trigger", of: "a") == "timer\n")
    #expect(try fixture.read("brightness", of: "a") == "0\n")
  }

  @Test(arguments: [
    "encode", "decode", "send --dry-run --unit 1", "send --led a --unit 1", "receive --edges -",
  ])
  func aClosedStandardInputIsAnErrorNotAnEmptyOne(command: String) throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("a", trigger: "none [timer]", attributes: ["delay_on": "100\n"])
    let script = """
      "$0" \(command) <&- & pid=$!
      for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
      if kill -0 $pid 2>/dev/null; then echo "hung"; kill -KILL $pid; fi
      wait $pid; echo "status $?"
      """
    let (output, errors) = try shell(script, fixture: fixture)
    #expect(!output.contains("hung"), "\(output) \(errors)")
    // As `cat <&-` fails: not an empty input, sent as nothing with status 0.
    #expect(output.hasSuffix("status 74\n"), "\(output) \(errors)")
    #expect(
      errors.hasSuffix(
        "morsetorch: cannot read standard input: Bad file descriptor (EBADF); standard input is "
          + "closed (or not open for reading): pipe the input in, or give it on the command "
          + "line\n"), "\(errors)")
    // Untouched, or (send) restored.
    #expect(try ["none [timer]\n", "timer\n"].contains(fixture.read("trigger", of: "a")))
    #expect(try fixture.read("brightness", of: "a") == "0\n")
  }

  @Test(arguments: ["encode", "send --dry-run --unit 1"])
  func anEmptyStandardInputIsNoError(command: String) throws {
    let (output, errors) = try shell("\"$0\" \(command) </dev/null; echo \"status $?\"")
    #expect(output.hasSuffix("status 0\n"), "\(output) \(errors)")
    #expect(errors.isEmpty, "\(errors)")
  }
}
