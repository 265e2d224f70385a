import LinuxSystem
import MorsePlayer

/// Prints each step of a dry run as a line of the timeline, as it begins in virtual time.
final class DryRunTimeline: TransmissionObserver {
  private let formatter: TimelineFormatter
  /// How many lines (steps, and the gaps between lines of input) were printed.
  private(set) var steps = 0

  /// A timeline counting time from `origin`; prints the header at once.
  init(origin: MonotonicInstant) {
    formatter = TimelineFormatter(origin: origin)
    Console.output(TimelineFormatter.header)
  }

  /// Prints the step (after the idle gap before it, between two lines of input).
  func transmission(didBegin progress: Transmitter.Progress) {
    // Lines of standard input, and rounds of a repeated message, follow each other after a
    // gap that is no step.
    let label = progress.round > 1 ? "pause, round \(progress.round)" : "word gap, next line"
    if let gap = formatter.gapLine(before: progress.start, label: label) {
      steps += 1
      Console.output(gap)
    }
    steps += 1
    Console.output(formatter.line(for: progress.step, at: progress.start))
  }

  /// What the last line made goes out before the next is waited for.
  func transmissionIsWaitingForInput(line: Int) {
    Console.flushOutput()
  }

  /// Prints the closing line.
  func finish(end: MonotonicInstant) {
    Console.output(formatter.summary(end: end, steps: steps))
  }
}
