import MorseTestSupport
import Testing

@testable import MorseCore

@Test func lightDebug() throws {
  let variant = 0
  var scene = SyntheticScene()
  scene.shake = 4
  if variant == 1 { scene.isBlurred = true }
  if variant == 2 { scene.drift = 0.15 }
  if variant == 3 { scene.hasLamp = true; scene.hasHeartbeat = true }
  if variant == 4 { scene.noise = 4; scene.lightBrightness = 150 }
  let e = MorseEdge.edges(of: MorseSteps(try MorseMessage("THE QUICK FOX"), timing: try MorseTiming(wordsPerMinute: 12)))
  let frames = scene.frames(showing: e)
  var light = LightReceiver(frameInterval: .seconds(1.0 / 30))
  var out: [LightReceiver.Event] = []
  for frame in frames { out += light.receive(frame) }
  var receiver = MorseReceiver()
  var text = ""
  for ev in out {
    if case .edge(let edge) = ev { for o in receiver.receive(edge) { if case .text(let t) = o { text += t } else { text += " " } } } else { print(variant, ev) }
  }
  for o in receiver.finish() { if case .text(let t) = o { text += t } }
  print(variant, text)
}
