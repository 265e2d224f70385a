import MorseCore
import MorseReceiving

/// The receivers' benchmark corpus (issue 21): for each named condition a few messages of
/// random words, keyed and passed through a channel, with the sender's nominal speed as the
/// hint a receiver may be told. Seeded: the same seed gives the same messages, edge for
/// edge, on every machine.
public enum ReceiverCorpus {
  /// How the messages of one part of the corpus are sent.
  public enum Condition: String, CaseIterable, Sendable {
    case ideal5, ideal10, ideal15, ideal20, ideal25, ideal30, ideal40
    case hand15, hand25, drift15to25, jump12to24, farnsworth18of8, bounce, light, together

    /// Its name in a table.
    public var name: String {
      switch self {
      case .ideal5, .ideal10, .ideal15, .ideal20, .ideal25, .ideal30, .ideal40:
        "ideal \(Int(idealSpeed ?? 0)) WPM"
      case .hand15: "hand, 15 % jitter"
      case .hand25: "hand, 25 % jitter"
      case .drift15to25: "drift 15->25 WPM"
      case .jump12to24: "jump 12->24 WPM"
      case .farnsworth18of8: "Farnsworth 18/8"
      case .bounce: "contact bounce"
      case .light: "light channel"
      case .together: "hand 15 % + bounce + light"
      }
    }

    /// The speed of an ideal-timing condition.
    var idealSpeed: Double? {
      switch self {
      case .ideal5: 5
      case .ideal10: 10
      case .ideal15: 15
      case .ideal20: 20
      case .ideal25: 25
      case .ideal30: 30
      case .ideal40: 40
      default: nil
      }
    }

    /// The jitter of its hand senders, or nil when the timing is ITU's.
    var handJitter: Double? {
      switch self {
      case .hand15, .together: 0.15
      case .hand25: 0.25
      default: nil
      }
    }

    /// What lies between the key and the receiver.
    var channel: NoisyChannel {
      var channel = self == .light || self == .together ? NoisyChannel.light : NoisyChannel()
      channel.bounce = self == .bounce || self == .together
      return channel
    }
  }

  /// One message of the corpus.
  public struct Message: Sendable {
    /// What was sent: words of A-Z and 0-9, single spaces.
    public let text: String
    /// The marks and gaps as keyed (before the channel).
    public let pieces: [KeyedPiece]
    /// What the receiver gets.
    public let edges: [MorseEdge]
    /// How the sender keys.
    public let fist: Fist
    /// How the sender's speed changes.
    public let speed: SpeedProfile
    /// The hint: the sender's nominal speed (where it starts), in words per minute.
    public var wordsPerMinute: Double { speed.nominal }
    /// The overall speed of Farnsworth spacing, when the sender uses it.
    public let farnsworthWPM: Double?
  }

  /// The seed of the published table.
  public static let defaultSeed: UInt64 = 0x636F_7270_7573_0015
  /// Messages per condition, and words per message: 5 x 16 words, 330-390 characters.
  public static let messageCount = 5
  public static let wordsPerMessage = 16
  /// The speeds a sender of a condition without a speed of its own keys at (one drawn each).
  public static let senderSpeeds = 12...25

  /// The messages of `condition` from `seed`. Each condition draws from its own generator
  /// (seeded by the seed and its name), so adding a condition changes no other.
  public static func messages(_ condition: Condition, seed: UInt64 = defaultSeed) -> [Message] {
    var random = SplitMix64(state: seed ^ nameHash(condition.rawValue))
    return (0..<messageCount).map { _ in message(condition, random: &random) }
  }

  private static func message(_ condition: Condition, random: inout SplitMix64) -> Message {
    let text = randomWords(wordsPerMessage, random: &random)
    var fist = Fist()
    var farnsworth: Double?
    var speed = SpeedProfile.steady(Double(Int.random(in: senderSpeeds, using: &random)))
    if let jitter = condition.handJitter {
      fist.dashUnits = Double.random(in: 2.5...4, using: &random)
      fist.letterGapUnits = Double.random(in: 2.5...4, using: &random)
      fist.wordGapUnits = Double.random(in: 5...10, using: &random)
      fist.jitter = jitter
    }
    switch condition {
    case .drift15to25: speed = .drifting(from: 15, to: 25)
    case .jump12to24: speed = .jumping(from: 12, to: 24)
    case .farnsworth18of8:
      // 18 and 8 are in MorseTiming's range: it cannot throw.
      let timing = try! MorseTiming(wordsPerMinute: 18, farnsworth: 8)
      fist.letterGapUnits = timing.letterGap / timing.unit
      fist.wordGapUnits = timing.wordGap / timing.unit
      speed = .steady(18)
      farnsworth = 8
    default:
      if let wpm = condition.idealSpeed { speed = .steady(wpm) }
    }
    let pieces = keyPieces(text, fist: fist, speed: speed, random: &random)
    let edges = condition.channel.edges(of: pieces, random: &random)
    return Message(
      text: text, pieces: pieces, edges: edges, fist: fist, speed: speed,
      farnsworthWPM: farnsworth)
  }

  /// `count` words of 1 to 6 characters: letters, and one character in ten a figure.
  static func randomWords(_ count: Int, random: inout SplitMix64) -> String {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let figures = Array("0123456789")
    return (0..<count).map { _ in
      String(
        (0..<Int.random(in: 1...6, using: &random)).map { _ in
          Int.random(in: 0..<10, using: &random) == 0
            ? figures.randomElement(using: &random)! : letters.randomElement(using: &random)!
        })
    }.joined(separator: " ")
  }

  /// FNV-1a of `name`'s bytes: a seed per condition that does not depend on their order.
  static func nameHash(_ name: String) -> UInt64 {
    name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0100_0000_01B3 }
  }
}
