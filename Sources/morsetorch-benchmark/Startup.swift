import Foundation
import MorseCore

/// `startup`: exec to the first edge of `morsetorch send` beside the C floor, over many runs.
///
/// One run of `compare` gives one start-up figure per sender, and a start-up varies from run
/// to run by more than the difference between the two; so here each sender is started
/// `tries` times, alternately (the floor first in odd rounds), each on a fresh LED through the
/// same launcher, and the medians are compared. Each sends "E" at a 5 ms unit: one edge on,
/// one off.
func runStartup(tries: Int) throws {
  try withLauncher("startup") { scratch, launcher in
    let timing = MorseTiming(unit: .milliseconds(5))
    let steps = Array(MorseSteps(try MorseMessage("E"), timing: timing))
    let all = try contenders(unit: timing.unit, text: "E", scratch: scratch)
    let chosen = all.filter { $0.name == "morsetorch send" || $0.name.hasSuffix("(floor)") }
    if let missing = chosen.first(where: { $0.missing != nil }) {
      print("startup: \(missing.name) skipped: \(missing.missing ?? "")")
      return
    }
    var firstEdges = Array(repeating: [Double](), count: chosen.count)
    var peaks = Array(repeating: [Double](), count: chosen.count)
    var failed = Array(repeating: 0, count: chosen.count)
    for round in 0..<tries {
      let order = round % 2 == 0 ? Array(chosen.indices) : chosen.indices.reversed()
      for index in order {
        guard let result = try run(chosen[index], steps: steps, launcher: launcher),
          result.exitStatus == 0, result.seen == result.expected, result.firstEdge.isFinite
        else {
          failed[index] += 1
          continue
        }
        firstEdges[index].append(result.firstEdge)
        peaks[index].append(Double(result.peakResidentKilobytes))
      }
    }
    print(
      "startup: \"E\" at a 5 ms unit, \(tries) runs of each, alternately; from the launcher's"
        + " fork to the first edge seen (inotify), ms")
    var medians: [Double] = []
    for index in chosen.indices {
      let sorted = firstEdges[index].sorted()
      medians.append(percentile(sorted, 0.5))
      let label = chosen[index].name.padding(toLength: 30, withPad: " ", startingAt: 0)
      print(
        "  \(label) median \(format(percentile(sorted, 0.5))), p10 "
          + "\(format(percentile(sorted, 0.1))), p90 \(format(percentile(sorted, 0.9))), "
          + "min \(format(sorted.first ?? .nan)); peak RSS median "
          + "\(Int(percentile(peaks[index].sorted(), 0.5))) kB"
          + (failed[index] > 0 ? "; \(failed[index]) runs failed" : ""))
    }
    if medians.count == 2 {
      print("  morsetorch / floor, medians: \(String(format: "%.2f", medians[0] / medians[1]))")
    }
  }}
