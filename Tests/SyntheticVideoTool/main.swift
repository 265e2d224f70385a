import Glibc
import MorseCore
import MorseReceiving
import MorseTestSupport

// `morsetorch-synthetic-video TEXT WPM [FPS] [hard]`: a made-up camera's view of a light
// sending TEXT at WPM, as a YUV4MPEG2 stream on standard output (never shipped). `hard`
// adds blur, a lamp, a heartbeat LED, noise and an exposure drift. For the CI stage that
// encodes it as H.264, the way a phone records, and reads it back through ffmpeg.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let wpm = Int(arguments[1]),
  let message = try? MorseMessage(arguments[0]),
  let timing = try? MorseTiming(wordsPerMinute: wpm)
else {
  let usage = Array("usage: morsetorch-synthetic-video TEXT WPM [FPS] [hard]\n".utf8)
  _ = write(2, usage, usage.count)
  exit(64)
}
var scene = arguments.contains("hard") ? SyntheticScene.hard : SyntheticScene()
scene.width = 320
scene.height = 240
scene.lightX = 200
scene.lightY = 80
if arguments.count >= 3, let fps = Double(arguments[2]) { scene.framesPerSecond = fps }
let frames = scene.frames(showing: MorseEdge.edges(of: MorseSteps(message, timing: timing)))
let rate = scene.framesPerSecond == 30 ? "30:1" : "\(Int(scene.framesPerSecond)):1"
let bytes = Y4MWriting.bytes(of: frames, rate: rate)
var written = 0
while written < bytes.count {
  let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  guard count > 0 else { exit(74) }
  written += count
}
