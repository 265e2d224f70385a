import CWDaemonProtocol
import MorseCore
import Testing

@Suite struct CWDaemonTextTests {
  private func keying(_ text: String, speed: Int = 20, weighting: Int = 0) -> CWDaemonKeying {
    CWDaemonText(Array(text.utf8)).keying(speed: speed, weighting: weighting)
  }

  /// The codes keyed, characters split at letter and word gaps, words at word gaps.
  private func codes(_ keying: CWDaemonKeying) -> String {
    var out = ""
    for step in keying.steps {
      switch step.kind {
      case .dot: out += "."
      case .dash: out += "-"
      case .elementGap: break
      case .letterGap: out += " "
      case .wordGap: out += out.isEmpty ? "" : " / "
      }
    }
    return out
  }

  @Test func textIsKeyedWithLibcwsTable() {
    #expect(codes(keying("cq de")) == "-.-. --.- / -.. .")
    #expect(codes(keying("!")) == "...-.")
    #expect(codes(keying("&<>^")) == ".-... ...-.- -...-.-")  // ^ ends the text
    #expect(codes(keying("$;_")) == "...-..- -.-.-. ..--.-")
    #expect(CWDaemonText(Array("&<>^".utf8)).hasCaret)
  }

  @Test func latin1CapitalsAreSingleBytesAndUTF8IsLeftOut() {
    #expect(
      codes(CWDaemonText([0xC4, 0xD6, 0xDC]).keying(speed: 20, weighting: 0)) == ".-.- ---. ..--")
    let utf8 = keying("Ä")
    #expect(utf8.isEmpty)
    #expect(utf8.dropped == Array("Ä".utf8))
    #expect(keying("A#B%").dropped == Array("#%".utf8))
  }

  @Test func plusAndMinusChangeTheSpeedFromThereOnWithinLimits() {
    let faster = keying("E+E", speed: 20)
    #expect(faster.speed == 22)
    let dots = faster.steps.filter { $0.kind == .dot }.map(\.duration)
    #expect(dots == [.milliseconds(60), .microseconds(1_200_000 / 22)])
    #expect(keying("---E", speed: 5).speed == 4)
    #expect(keying("++++E", speed: 58).speed == 60)
    // A hyphen is a speed change, so it keys nothing.
    #expect(codes(keying("A-B", speed: 20)) == ".- -...")
  }

  @Test func anAsteriskIsAR() {
    #expect(codes(keying("*")) == ".-.-.")
  }

  @Test func aTildeLengthensTheGapAfterTheNextCharacterByTwoUnits() {
    let plain = keying("EE", speed: 20).steps
    let gapped = keying("~EE", speed: 20).steps
    #expect(plain[1].duration == .milliseconds(180))
    #expect(gapped[1].duration == .milliseconds(300))
  }

  @Test func aLeadingSpaceIsAPauseAndATrailingOneOwesAWordGap() {
    let leading = keying(" E", speed: 20)
    #expect(leading.steps.first?.kind == .wordGap)
    #expect(leading.steps.first?.isOn == false)
    let trailing = keying("E ", speed: 20)
    #expect(
      trailing.steps.last
        == MorseStep(
          kind: .wordGap, duration: .milliseconds(420), symbol: trailing.steps[0].symbol))
    #expect(trailing.trailingGap == .zero)
    #expect(keying("E", speed: 20).trailingGap == .milliseconds(180))
  }

  @Test(arguments: [-50, -20, 0, 25, 50])
  func weightingKeepsEveryElementsPeriod(weighting: Int) {
    let steps = keying("A", speed: 20, weighting: weighting).steps
    let unit = Duration.milliseconds(60)
    // dot + element gap is two units, the dash four; longer marks for a positive weighting.
    #expect(steps[0].duration + steps[1].duration == unit * 2)
    #expect(steps[2].duration == unit * 3 + (steps[0].duration - unit))
    #expect((steps[0].duration > unit) == (weighting > 0))
  }

  @Test func stepsAlternateAndEndOnAMark() {
    let steps = keying(" CQ  de,?*~A ", speed: 33, weighting: 10).steps
    for (first, second) in zip(steps, steps.dropFirst()) { #expect(first.isOn != second.isOn) }
    #expect(steps.last?.isOn == false)  // the trailing space
    #expect(keying("CQ").steps.last?.isOn == true)
  }

  @Test func shownBytesEscapeWhatIsNotPrintable() {
    #expect(CWDaemonText.shown([0x41, 0x1B, 0x0D, 0xC4, 0x5C]) == "A\\x1B\\x0D\\xC4\\x5C")
  }
}
