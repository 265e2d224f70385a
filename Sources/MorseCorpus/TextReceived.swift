import MorseCore
import MorseReceiving

/// Everything a `MorseReceiver` with `settings` makes of `edges` to their end, as text: a
/// space for a word gap, "\n" for a line break; an unknown code (`[.-.-.-]`) as it prints,
/// or as `unknown` when given (libcw-receive prints `?`).
public func textReceived(
  from edges: [MorseEdge], settings: MorseReceiver.Settings = .init(), unknown: String? = nil
) -> String {
  var receiver = MorseReceiver(settings: settings)
  var outputs: [MorseReceiver.Output] = []
  for edge in edges { outputs += receiver.receive(edge) }
  outputs += receiver.finish()
  return text(of: outputs, unknown: unknown)
}

/// `outputs` as text: a space for a word gap, "\n" for a line break; an unknown code as it
/// prints, or as `unknown` when given.
public func text(of outputs: [MorseReceiver.Output], unknown: String? = nil) -> String {
  outputs.map { output in
    switch output {
    case .text(let text): unknown.map { text.hasPrefix("[") ? $0 : text } ?? text
    case .space: " "
    case .lineBreak: "\n"
    }
  }.joined()
}
