import Testing

@testable import MorsetorchTool

/// Parses `words` as the options of `send`.
private func parse(_ words: [String]) throws(UsageError) -> ParsedArguments<SendOption> {
  try ParsedArguments(words, command: "send")
}

@Suite("ParsedArguments")
struct ArgumentsTests {
  @Test func optionWithSeparateValue() throws {
    let arguments = try parse(["--wpm", "20", "SOS"])
    #expect(arguments.values == [.wpm: "20"])
    #expect(arguments.flags.isEmpty)
    #expect(arguments.operands == ["SOS"])
  }

  @Test func optionWithInlineValue() throws {
    let arguments = try parse(["--wpm=20", "--led=white:flash", "SOS"])
    #expect(arguments.values == [.wpm: "20", .led: "white:flash"])
    #expect(arguments.operands == ["SOS"])
  }

  @Test func aRepeatedOptionKeepsEveryValueInOrderAndTheLastAsItsValue() throws {
    let arguments = try parse(["--led", "b", "--led=*::capslock", "--wpm", "20", "SOS"])
    #expect(arguments.all(.led) == ["b", "*::capslock"])
    #expect(arguments.values[.led] == "*::capslock")
    #expect(arguments.all(.wpm) == ["20"])
    #expect(arguments.all(.unit).isEmpty)
  }

  @Test func inlineValueKeepsEverythingAfterTheFirstEqualsSign() throws {
    let arguments = try parse(["--led=a=b"])
    #expect(arguments.values == [.led: "a=b"])
  }

  @Test func emptyInlineValueIsAValueNotAMissingOne() throws {
    let arguments = try parse(["--wpm="])
    #expect(arguments.values == [.wpm: ""])
    #expect(throws: UsageError.invalidValue(option: "--wpm", value: "", expected: "a whole number"))
    {
      try arguments.integer(.wpm)
    }
  }

  @Test func shortHelpFlag() throws {
    let arguments = try parse(["-h"])
    #expect(arguments.flags == [.help])
    #expect(arguments.has(.help))
    #expect(!arguments.has(.dryRun))
  }

  @Test func flagsAndOptionsInAnyOrderAroundOperands() throws {
    let arguments = try parse(["HELLO", "--dry-run", "WORLD", "--unit", "5", "--skip-unknown"])
    #expect(arguments.flags == [.dryRun, .skipUnknown])
    #expect(arguments.values == [.unit: "5"])
    #expect(arguments.operands == ["HELLO", "WORLD"])
  }

  @Test func repeatedOptionLastOneWins() throws {
    let arguments = try parse(["--wpm", "10", "--wpm=30"])
    #expect(arguments.values == [.wpm: "30"])
  }

  @Test func doubleDashEndsOptions() throws {
    let arguments = try parse(["--unit", "5", "--", "--wpm", "-h", "--"])
    #expect(arguments.values == [.unit: "5"])
    #expect(arguments.flags.isEmpty)
    #expect(arguments.operands == ["--wpm", "-h", "--"])
  }

  @Test func loneDashIsAnOperand() throws {
    let arguments = try parse(["--unit", "5", "-"])
    #expect(arguments.operands == ["-"])
  }

  @Test(arguments: ["-.-.", "---", "-", ".-", "-..-.", "-...-", "--..--", "-5"])
  func morseCodeAndNumbersAreOperands(_ word: String) throws {
    #expect(!OptionWords.looksLikeOption(word))
    let arguments = try ParsedArguments<DecodeOption>([word], command: "decode")
    #expect(arguments.operands == [word])
  }

  @Test(arguments: ["-h", "-x", "--help", "--wpm", "--x", "--wpm=3"])
  func dashThenLetterLooksLikeAnOption(_ word: String) {
    #expect(OptionWords.looksLikeOption(word))
  }

  @Test func theToolsOwnOptionsAreReadOnlyWhenWrittenWhole() {
    #expect(ToolOption("--help") == .help)
    #expect(ToolOption("-h") == .help)
    #expect(ToolOption("--version") == .version)
    for word in ["--help=x", "-v", "--versions", "help", "-hh", "--"] {
      #expect(ToolOption(word) == nil, "\(word)")
    }
  }

  @Test func everyCommandsShortNamesAreTheirOwn() {
    for command in CommandTable.commands {
      let shortNames = command.options.compactMap(\.shortName)
      #expect(Set(shortNames).count == shortNames.count, "\(command.name)")
    }
  }

  @Test func unknownLongOption() {
    #expect(throws: UsageError.unknownOption("--frobnicate", command: "send")) {
      try parse(["--frobnicate"])
    }
  }

  @Test func unknownLongOptionWithInlineValueNamesTheWholeWord() {
    #expect(throws: UsageError.unknownOption("--speed=5", command: "send")) {
      try parse(["--speed=5"])
    }
  }

  @Test(arguments: ["-x", "-v", "-hh", "-wpm"])
  func unknownShortOption(_ word: String) {
    #expect(throws: UsageError.unknownOption(word, command: "send")) {
      try parse([word])
    }
  }

  @Test(arguments: [["--edges", "--alphabet", "russian", "-"], ["--edges", "-h"]])
  func anOptionIsNoValueOfTheOptionBeforeIt(words: [String]) {
    // Before: `--edges --alphabet russian -` read a file named --alphabet.
    #expect(
      throws: UsageError.optionAsValue(option: "--edges", valueName: "FILE", word: words[1])
    ) {
      try ParsedArguments<ReceiveOption>(words, command: "receive")
    }
    // Written with `=`, it is the value; `-` alone (standard input) is one too.
    #expect(
      (try? ParsedArguments<ReceiveOption>(["--edges=" + words[1]], command: "receive"))?
        .value(.edges) == words[1])
    #expect(
      (try? ParsedArguments<ReceiveOption>(["--edges", "-"], command: "receive"))?.value(.edges)
        == "-")
  }

  @Test(arguments: [
    ("sned", "did you mean 'send'?"), ("recieve", "did you mean 'receive'?"),
    ("sto", "did you mean 'stop'?"), ("frobnicate", "the commands are"),
  ])
  func aMistypedCommandIsAnsweredWithTheOneMeant(typed: String, said: String) {
    #expect(UsageError.unknownCommand(typed).description.contains(said))
  }

  @Test func aMistypedOptionIsAnsweredWithTheOneMeant() {
    #expect(
      UsageError.unknownOption("--wmp", command: "send").description.contains(
        "did you mean --wpm?"))
    #expect(
      UsageError.unknownOption("--uint=5", command: "send").description.contains(
        "did you mean --unit?"))
    #expect(
      !UsageError.unknownOption("--frobnicate", command: "send").description.contains("mean"))
  }

  /// Before: `-v` got only "see `morsetorch --help`".
  @Test(arguments: [
    ("-v", "morsetorch", "did you mean --version?"),
    ("--verison", "morsetorch", "did you mean --version?"),
    ("-wpm", "send", "did you mean --wpm?"), ("-tone", "send", "did you mean --tone?"),
    ("-x", "morsetorch", "see `morsetorch --help`"),
  ])
  func aShortOrOneDashOptionIsAnsweredWithTheLongOneItBegins(
    typed: String, command: String, said: String
  ) {
    let message = UsageError.unknownOption(typed, command: command).description
    #expect(message.contains(said), "\(message)")
    #expect(message.contains("mean") == said.contains("mean"), "\(message)")
  }

  @Test func optionOfAnotherCommandIsUnknown() {
    #expect(throws: UsageError.unknownOption("--wpm", command: "encode")) {
      try ParsedArguments<EncodeOption>(["--wpm", "5"], command: "encode")
    }
  }

  @Test func missingValueAtTheEnd() {
    #expect(throws: UsageError.missingValue(option: "--wpm", valueName: "N")) {
      try parse(["SOS", "--wpm"])
    }
    #expect(throws: UsageError.missingValue(option: "--brightness", valueName: "N|P%")) {
      try parse(["--brightness"])
    }
  }

  /// `--camera` takes the next word only when it is no option; `--camera=PATH` always.
  @Test(arguments: [
    (["--camera"], nil as String?),
    (["--camera", "/dev/video2"], "/dev/video2"),
    (["--camera", "--timeout", "5s"], nil),
    (["--camera=/dev/video1", "--timeout", "5s"], "/dev/video1"),
    (["--camera", "--", "x"], nil),
  ])
  func anOptionalValueIsTakenOnlyWhenOneFollows(words: [String], device: String?) throws {
    let arguments = try ParsedArguments<ReceiveOption>(words, command: "receive")
    #expect(arguments.has(.camera))
    #expect(arguments.value(.camera) == device)
    #expect(arguments.operands == (words.contains("--") ? ["x"] : []))
  }

  @Test func flagWithValue() {
    #expect(throws: UsageError.unexpectedValue(option: "--dry-run")) {
      try parse(["--dry-run=yes"])
    }
    #expect(throws: UsageError.unexpectedValue(option: "--help")) {
      try parse(["--help="])
    }
  }

  @Test func integerValues() throws {
    let arguments = try parse(["--wpm", "20", "--unit", "x5"])
    #expect(try arguments.integer(.wpm) == 20)
    #expect(try arguments.integer(.farnsworth) == nil)
    #expect(
      throws: UsageError.invalidValue(option: "--unit", value: "x5", expected: "a whole number")
    ) {
      try arguments.integer(.unit)
    }
  }

  @Test(arguments: ["+5", "-5", " 5", "5 ", "0x5", "5_0", "٥", "99999999999999999999"])
  func aNumberIsDecimalDigitsOnlyAndTheErrorSaysWhatTheOptionAccepts(_ text: String) {
    #expect(
      throws: UsageError.invalidValue(option: "--repeat", value: text, expected: "1 to 9")
    ) {
      try parse(["--repeat", text]).integer(.repeat, expected: "1 to 9")
    }
  }

  @Test func everyUsageErrorHasADescriptionForAPerson() {
    let errors: [UsageError] = [
      .missingCommand, .unknownCommand("blink"), .unknownOption("--x", command: "send"),
      .missingValue(option: "--wpm", valueName: "N"), .unexpectedValue(option: "--dry-run"),
      .invalidValue(option: "--wpm", value: "x", expected: "a whole number"),
      .conflictingOptions("--wpm", "--unit"), .requiresOption("--farnsworth", requirement: "--wpm"),
      .unexpectedOperands(command: "list", ["a", "b"]), .emptyText(command: "send"),
      .tooManyDevices(option: "--led", count: 300, devices: "LEDs", limit: 256),
    ]
    for error in errors {
      #expect(!error.description.isEmpty)
      #expect(!error.description.hasSuffix("\n"))
    }
    #expect(UsageError.unknownCommand("blink").description.contains("'blink'"))
    #expect(UsageError.unexpectedOperands(command: "list", ["a", "b"]).description.contains("a b"))
  }

  @Test func unknownOptionOfTheToolItselfPointsToTheToolsHelp() {
    // `morsetorch --frobnicate` reports command "morsetorch"; the advice must be a command
    // that exists.
    let description = UsageError.unknownOption("--frobnicate", command: "morsetorch").description
    #expect(!description.contains("morsetorch morsetorch"))
    #expect(description.contains("`morsetorch --help`"))
    #expect(description.contains("--frobnicate"))
  }
}

@Suite("textOperand")
struct TextOperandTests {
  @Test func noOperandsMeansStandardInput() throws {
    #expect(try textOperand([], command: "send") == nil)
  }

  @Test func loneDashMeansStandardInput() throws {
    #expect(try textOperand(["-"], command: "send") == nil)
  }

  @Test func operandsAreJoinedBySpaces() throws {
    #expect(try textOperand(["CQ", "CQ", "DE", "X"], command: "send") == "CQ CQ DE X")
    #expect(try textOperand(["- -"], command: "send") == "- -")
    #expect(try textOperand(["-", "E"], command: "send") == "- E")
  }

  @Test(arguments: [[""], ["  "], ["", ""], ["\t", " "]])
  func blankTextIsAUsageError(_ operands: [String]) {
    #expect(throws: UsageError.emptyText(command: "encode")) {
      try textOperand(operands, command: "encode")
    }
  }
}
