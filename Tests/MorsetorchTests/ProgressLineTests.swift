import Instants
import LinuxSystem
import Testing

@testable import MorsetorchTool

@Suite struct ProgressLineTests {
  private func state(
    symbolsBegun: Int = 2, totalSymbols: Int? = 3, total: Duration? = .seconds(4),
    round: Int = 1, rounds: Int = 1, line: Int? = nil, isOn: Bool = true
  ) -> ProgressState {
    var state = ProgressState()
    state.symbol = "O"
    state.code = "---"
    state.isOn = isOn
    state.symbolsBegun = symbolsBegun
    state.totalSymbols = totalSymbols
    state.origin = .origin + .seconds(100)
    state.total = total
    state.round = round
    state.rounds = rounds
    state.line = line
    return state
  }

  @Test func aMessageOfKnownLengthHasABarAndBothTimes() {
    let line = ProgressLine.render(state(), now: .origin + .seconds(101), width: 120, color: false)
    #expect(line == "●  O ---  [#####...............]  1.0 s / 4.0 s  2/3 characters")
  }

  @Test func roundsOfARepeatAndOfALoop() {
    let repeated = ProgressLine.render(
      state(round: 2, rounds: 3), now: .origin + .seconds(102), width: 120, color: false)
    #expect(repeated.hasSuffix("2/3 characters  round 2/3"))
    let loop = ProgressLine.render(
      state(total: nil, round: 41, rounds: 0, isOn: false), now: .origin + .seconds(3700), width: 120,
      color: false)
    #expect(loop == "○  O ---  1:00:00  2/3 characters  round 41")
  }

  @Test func standardInputShowsTheLineAndTheWait() {
    var streamed = state(totalSymbols: nil, total: nil, line: 12)
    #expect(
      ProgressLine.render(streamed, now: .origin + .seconds(165), width: 120, color: false)
        == "●  O ---  1:05  line 12")
    streamed.isWaitingForInput = true
    streamed.line = 13
    #expect(
      ProgressLine.render(streamed, now: .origin + .seconds(165), width: 120, color: false)
        == "●  waiting for input (line 13)  1:05")
  }

  @Test(arguments: [1, 2, 3, 10, 30, 61], [false, true])
  func theLineNeverWrapsAtAnyWidth(width: Int, color: Bool) {
    for compact in [false, true] {
      let line = ProgressLine.render(
        state(), now: .origin + .seconds(101), width: width, color: color, compact: compact)
      #expect(visibleText(line).count <= width - 1, "\(width): \(line)")
    }
  }

  @Test func aNarrowTerminalShowsTheLightFirstThenWhatFits() {
    let shown = { (width: Int) in
      ProgressLine.render(state(), now: .origin + .seconds(101), width: width, color: false)
    }
    #expect(shown(1) == "")
    #expect(shown(2) == "●")
    #expect(shown(3) == "●…")
    #expect(shown(30) == "●  O ---  [#####............…")
    #expect(
      ProgressLine.render(state(), now: .origin + .seconds(101), width: 2, color: true)
        == "\u{1B}[1;33m●\u{1B}[0m")
  }

  @Test func colourOnlyWhenAskedAndOnlyOnTheLitLight() {
    let lit = ProgressLine.render(state(), now: .origin + .seconds(101), width: 120, color: true)
    #expect(lit.hasPrefix("\u{1B}[1;33m●\u{1B}[0m  O ---"))
    let dark = ProgressLine.render(state(isOn: false), now: .origin + .seconds(101), width: 120, color: true)
    #expect(!dark.contains("\u{1B}"))
    let plain = ProgressLine.render(state(), now: .origin + .seconds(101), width: 120, color: false)
    #expect(!plain.contains("\u{1B}"))
  }

  @Test func compactLeavesOutTheLightAndTheCharacter() {
    let line = ProgressLine.render(
      state(), now: .origin + .seconds(103), width: 120, color: true, compact: true)
    #expect(line == "[###############.....]  3.0 s / 4.0 s  2/3 characters")
  }

  @Test func timesRoundDown() {
    #expect(ProgressLine.seconds(.milliseconds(59_999)) == "59.9 s")
    #expect(ProgressLine.seconds(.seconds(60)) == "1:00")
    #expect(ProgressLine.seconds(.seconds(3_599)) == "59:59")
    #expect(ProgressLine.seconds(.seconds(36_061)) == "10:01:01")
  }
}
