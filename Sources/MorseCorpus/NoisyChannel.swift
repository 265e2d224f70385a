import Instants
import MorseCore
import MorseReceiving

/// What lies between a sender's key and the receiver's input: contact bounce at the key, and
/// what a camera or a light sensor adds (flashes in the gaps, marks cut by a dropout).
/// `NoisyChannel()` passes the keying through unchanged.
public struct NoisyChannel: Sendable, Hashable {
  /// Contact bounce at every key-down: 1 to 3 openings, each after 0.5-3 ms closed and
  /// 0.5-3 ms long, before the key stays down.
  public var bounce = false
  /// A 3-8 ms flash about this often (each next one 0.5 to 1.5 times this later), in a gap
  /// and 2 ms from its ends: one due on a mark (or too near one) is seen in the next gap
  /// long enough for it, somewhere in it. Nil: none.
  public var blipEvery: Duration?
  /// The share of the marks split by a 5-15 ms dropout (in their middle, after any bounce,
  /// and only where 2 ms of the mark are left after it).
  public var dropoutShare = 0.0

  /// The shortest and longest contact bounce interval.
  public static let bounceRange = Duration.microseconds(500)...Duration.microseconds(3000)
  /// The shortest and longest flash.
  public static let blipRange = Duration.microseconds(3000)...Duration.microseconds(8000)
  /// The shortest and longest dropout.
  public static let dropoutRange = Duration.microseconds(5000)...Duration.microseconds(15000)

  /// No noise.
  public init() {}

  /// A light read by a camera or a sensor: a flash about every 5 s, 3 % of the marks split.
  public static var light: NoisyChannel {
    var channel = NoisyChannel()
    channel.blipEvery = .seconds(5)
    channel.dropoutShare = 0.03
    return channel
  }

  /// The edges the receiver sees of `pieces` (in order, as `keyPieces` makes them).
  public func edges(of pieces: [KeyedPiece], random: inout SplitMix64) -> [MorseEdge] {
    var edges: [MorseEdge] = []
    var nextBlip = (pieces.first?.start ?? .origin) + (blipEvery ?? .zero) * draw(0...2, &random)
    for piece in pieces {
      if piece.isMark {
        edges += mark(piece, random: &random)
      } else if let blipEvery {
        while nextBlip < piece.end {
          let width = duration(in: Self.blipRange, &random)
          let earliest = piece.start + .milliseconds(2)
          let latest = piece.end - .milliseconds(2) - width
          guard earliest < latest else { break }  // too short a gap: the next one
          let at =
            nextBlip > earliest && nextBlip < latest
            ? nextBlip : earliest + (latest - earliest) * draw(0...1, &random)
          edges.append(MorseEdge(time: at, isOn: true))
          edges.append(MorseEdge(time: at + width, isOn: false))
          nextBlip = max(nextBlip, at) + blipEvery * draw(0.5...1.5, &random)
        }
      }
    }
    return edges
  }

  /// The edges of one mark: on, any bounce, any dropout, off.
  private func mark(_ piece: KeyedPiece, random: inout SplitMix64) -> [MorseEdge] {
    var edges = [MorseEdge(time: piece.start, isOn: true)]
    var time = piece.start
    if bounce {
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        time += duration(in: Self.bounceRange, &random)
        edges.append(MorseEdge(time: time, isOn: false))
        time += duration(in: Self.bounceRange, &random)
        edges.append(MorseEdge(time: time, isOn: true))
      }
    }
    if dropoutShare > 0 {
      let isCut = draw(0...1, &random) < dropoutShare
      let length = duration(in: Self.dropoutRange, &random)
      let at = max(piece.start + (piece.length - length) / 2, time + .milliseconds(1))
      if isCut && at + length <= piece.end - .milliseconds(2) {
        edges.append(MorseEdge(time: at, isOn: false))
        edges.append(MorseEdge(time: at + length, isOn: true))
      }
    }
    edges.append(MorseEdge(time: piece.end, isOn: false))
    return edges
  }

  private func draw(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
    Double.random(in: range, using: &random)
  }

  /// A whole number of microseconds in `range`.
  private func duration(in range: ClosedRange<Duration>, _ random: inout SplitMix64) -> Duration {
    let low = range.lowerBound / .microseconds(1)
    let high = range.upperBound / .microseconds(1)
    return .microseconds(Int64.random(in: Int64(low)...Int64(high), using: &random))
  }
}
