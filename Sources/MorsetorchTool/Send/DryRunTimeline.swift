import Instants
import LinuxSystem
import MorseCore
import MorsePlayer

/// Prints each step of a dry run as a line of the timeline, as it begins in virtual time.
final class DryRunTimeline: TransmissionObserver {
  private let formatter: TimelineFormatter
  private let letterGap: Duration
  /// How many lines (steps, and the gaps between lines of input) were printed.
  private(set) var steps = 0
  private var line = 0

  /// A timeline counting time from `origin` for a message sent with `timing`; prints the
  /// header at once.
  init(origin: MonotonicInstant, timing: MorseTiming) {
    formatter = TimelineFormatter(origin: origin)
    letterGap = timing.letterGap
    Console.output(TimelineFormatter.header)
  }

  /// Prints the step (after the idle gap before it, between two lines of input).
  func transmission(didBegin progress: Transmitter.Progress) {
    // Lines of standard input, pieces of a long line, and rounds of a repeated message
    // follow each other after a gap that is no step. (In virtual time a gap is never longer
    // than the transmitter made it: a piece that goes on with a word follows a letter gap.)
    let label =
      progress.round > 1
      ? "pause, round \(progress.round)"
      : progress.line != line
        ? "word gap, next line"
        : formatter.idle(before: progress.start) == letterGap
          ? "letter gap, the word goes on" : "word gap, the line goes on"
    line = progress.line
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
