import Instants
import MorseCore

/// A change of level with its time: light on or off, key down or up.
public struct MorseEdge: Sendable, Hashable {
  /// When, on the clock of its source (the kernel's monotonic clock for a pin, seconds from
  /// a file's origin, a frame's time in a video).
  public let time: MonotonicInstant
  /// The new level: on (light on, key down) or off.
  public let isOn: Bool

  /// An edge to `isOn` at `time`.
  public init(time: MonotonicInstant, isOn: Bool) {
    self.time = time
    self.isOn = isOn
  }

  /// The edges of `steps` sent from `start`: on at each element's start, off at its end.
  public static func edges(of steps: some Sequence<MorseStep>, from start: MonotonicInstant = .origin)
    -> [MorseEdge]
  {
    var edges: [MorseEdge] = []
    var time = start
    for step in steps {
      let isOn = step.kind == .dot || step.kind == .dash
      if isOn { edges.append(MorseEdge(time: time, isOn: true)) }
      time += step.duration
      if isOn { edges.append(MorseEdge(time: time, isOn: false)) }
    }
    return edges
  }
}
