import Instants
import Testing

@Suite struct MonotonicInstantTests {
  /// Generic code over the standard library's instants, as any caller of `InstantProtocol`.
  private func later<Instant: InstantProtocol>(_ instant: Instant, by step: Instant.Duration)
    -> (instant: Instant, back: Instant.Duration)
  {
    let later = instant.advanced(by: step)
    return (later, later.duration(to: instant))
  }

  @Test func isAnInstantOfTheStandardLibrary() {
    let start = MonotonicInstant(sinceOrigin: .milliseconds(1200))
    let (end, back) = later(start, by: .milliseconds(300))
    #expect(end == MonotonicInstant(sinceOrigin: .milliseconds(1500)))
    #expect(back == .milliseconds(-300))
    #expect(end - start == .milliseconds(300))
    #expect(start + .milliseconds(300) == end)
    #expect(start < end)
  }
}
