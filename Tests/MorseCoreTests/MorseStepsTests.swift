import MorseCore
import Testing

@Suite struct MorseStepsTests {
  private func steps(_ text: String, timing: MorseTiming = .standard) throws -> [MorseStep] {
    Array(MorseSteps(try MorseMessage(text), timing: timing))
  }

  private func shape(_ steps: [MorseStep]) -> String {
    steps.map { step in
      switch step.kind {
      case .dot: "."
      case .dash: "-"
      case .elementGap: ""
      case .letterGap: " "
      case .wordGap: " / "
      }
    }.joined()
  }

  @Test func sosExpandsToTheItuPattern() throws {
    let result = try steps("SOS")
    #expect(shape(result) == "... --- ...")
    #expect(result.count == 5 + 1 + 5 + 1 + 5)
    #expect(result.map(\.duration).reduce(.zero, +) == .milliseconds(2700))
  }

  @Test func wordGapReplacesTheLetterGapAndWhitespaceRunsAreOneGap() throws {
    let result = try steps("  E \t\n  T  ")
    #expect(result.map(\.kind) == [.dot, .wordGap, .dash])
    #expect(result.map(\.duration) == [.milliseconds(100), .milliseconds(700), .milliseconds(300)])
  }

  @Test func eachStepNamesTheCharacterItSends() throws {
    let result = try steps("AB")
    #expect(result.map(\.symbol.text) == ["A", "A", "A", "B", "B", "B", "B", "B", "B", "B", "B"])
  }

  @Test func prosignHasNoLetterGaps() throws {
    #expect(shape(try steps("<SK>")) == "...-.-")
  }

  @Test func emptyMessageHasNoSteps() throws {
    #expect(try steps("   ").isEmpty)
  }

  @Test(arguments: ["SOS", "Hello, world", "<SK> 73", "2% of 3‰", "a  b\tc\nd", "É×″"])
  func stepsAlternateAndStartAndEndOn(text: String) throws {
    let result = try steps(text)
    #expect(result.first?.isOn == true)
    #expect(result.last?.isOn == true)
    for (previous, next) in zip(result, result.dropFirst()) {
      #expect(previous.isOn != next.isOn)
    }
    // Every element of every symbol is sent once, in order.
    let message = try MorseMessage(text)
    let elements = message.compactMap { token -> [MorseElement]? in
      if case .symbol(let symbol) = token { return symbol.code.elements }
      return nil
    }.flatMap { $0 }
    let sent = result.compactMap { step -> MorseElement? in
      switch step.kind {
      case .dot: .dot
      case .dash: .dash
      default: nil
      }
    }
    #expect(sent == elements)
  }

  @Test func expansionIsLazy() throws {
    // Two million characters: iterating must not need an array of steps.
    let text = String(repeating: "E ", count: 1_000_000)
    var iterator = MorseSteps(try MorseMessage(text), timing: .standard).makeIterator()
    var count = 0
    var total = Duration.zero
    while let step = iterator.next() {
      count += 1
      total += step.duration
    }
    #expect(count == 1_999_999)
    #expect(total == .milliseconds(100 * 1_000_000 + 700 * 999_999))
  }
}
