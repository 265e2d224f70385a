import Instants
import MorseCore
import Testing

@testable import MorseReceiving

@Suite struct MorseEdgeTests {
  @Test func eachMarkIsAnOnEdgeAtItsStartAndAnOffEdgeAtItsEnd() throws {
    let timing = MorseTiming(unit: .milliseconds(100))
    let edges = MorseEdge.edges(of: MorseSteps(try MorseMessage("AE T"), timing: timing))
    let ms = { MonotonicInstant.origin + .milliseconds($0) }
    #expect(
      edges == [
        MorseEdge(time: ms(0), isOn: true), MorseEdge(time: ms(100), isOn: false),
        MorseEdge(time: ms(200), isOn: true), MorseEdge(time: ms(500), isOn: false),
        MorseEdge(time: ms(800), isOn: true), MorseEdge(time: ms(900), isOn: false),
        MorseEdge(time: ms(1600), isOn: true), MorseEdge(time: ms(1900), isOn: false),
      ])
  }

  @Test func edgesAlternateIncreaseAndLastAsLongAsTheSteps() throws {
    let timing = try MorseTiming(wordsPerMinute: 20, farnsworth: 8)
    let steps = MorseSteps(try MorseMessage("CQ DE N0CALL <SK>"), timing: timing)
    let start = MonotonicInstant.origin + .seconds(1000)
    let edges = MorseEdge.edges(of: steps, from: start)
    #expect(edges.first == MorseEdge(time: start, isOn: true))
    #expect(edges.last?.isOn == false)
    #expect(zip(edges, edges.dropFirst()).allSatisfy { $0.isOn != $1.isOn && $0.time < $1.time })
    #expect(edges.last?.time == start + steps.map(\.duration).reduce(.zero, +))
  }

  @Test func noStepsNoEdges() {
    #expect(MorseEdge.edges(of: [MorseStep]()).isEmpty)
  }
}
