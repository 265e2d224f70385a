import Testing

@testable import LEDDriver

@Suite("BrightnessSetting")
struct BrightnessSettingTests {
  @Test(arguments: [
    (BrightnessSetting.maximum, 255, 255), (.value(300), 255, 255), (.value(0), 255, 1),
    (.percent(40), 200, 80), (.percent(50), 1, 1), (.percent(1), 10, 1), (.percent(50), 3, 2),
  ])
  func onValues(setting: BrightnessSetting, maximum: Int, expected: Int) {
    #expect(setting.onValue(maximum: maximum) == expected)
  }

  @Test func aHugeMaximumDoesNotOverflow() {
    // max_brightness of 9223372036854775807 with 50%: half, rounded up, no trap.
    #expect(BrightnessSetting.percent(50).onValue(maximum: Int.max) == Int.max / 2 + 1)
    #expect(BrightnessSetting.percent(100).onValue(maximum: Int.max) == Int.max)
    #expect(BrightnessSetting.percent(99).onValue(maximum: Int.max) < Int.max)
  }
}
