import MorseTestSupport
import Testing

@testable import MorseReceiving

// A light whose blinking changes much of the picture: a screen or a torch filling the frame,
// a glow over the wall, a camera's exposure hunting after it. The picture-wide change is the
// message then, not flicker to take out: taken out, it left the message's negative, and the
// dark was read as marks (a pillarbox's black bars, a block lit less than the rest).

@Suite struct WholePictureLightTests {
  /// A phone's screen flashing, filling a pillarboxed picture: the black bars (exactly 0)
  /// never change, and the corners it lights less than the middle are not the light either.
  @Test func aScreenFillingThePictureBetweenBlackBarsIsReadNotItsNegative() throws {
    var scene = SyntheticScene()
    (scene.lightX, scene.lightY, scene.lightRadius) = (80, 60, 75)
    scene.lightBrightness = 150
    scene.border = 24
    let (text, events) = read(scene.frames(showing: try edges("SOS SOS", wpm: 8)))
    #expect(text == "SOS SOS", "\(events)")
  }

  /// A torch filmed close by, its glow lighting the wall it stands by (two thirds of the
  /// picture, a third brighter) and not the doorway beside it; with the camera's exposure
  /// steady, and hunting after it (darkening the picture a few frames after each flash).
  /// Or a light filling the picture, the exposure hunting.
  @Test(arguments: [(0.35, 0.7, 0.0, 8.0), (0.35, 0.7, 0.3, 8.0), (1.5, 1.0, 0.3, 70.0)])
  func aLightThatLightsMuchOfThePictureIsRead(
    glow: Double, cover: Double, autoExposure: Double, radius: Double
  ) throws {
    var scene = SyntheticScene()
    (scene.glow, scene.glowCover, scene.autoExposure) = (glow, cover, autoExposure)
    scene.lightRadius = radius
    if radius > 20 { (scene.lightX, scene.lightY) = (80, 60) }
    let (text, events) = read(scene.frames(showing: try edges("PARIS PARIS", wpm: 10)))
    #expect(text == "PARIS PARIS", "\(events)")
  }
}
