import LinuxSystem
import MorseTestSupport
import Testing

@testable import MorsePlayer

@Suite struct VirtualStepClockTests {
  @Test func virtualClockNeverGoesBackAndStopsWhenCancelled() {
    let clock = VirtualStepClock(start: at(100))
    let cancellation = Cancellation()
    #expect(clock.wait(until: at(50), unlessCancelled: cancellation))
    #expect(clock.now() == at(100))
    cancellation.cancel()
    #expect(clock.wait(until: at(500), unlessCancelled: cancellation) == false)
    #expect(clock.now() == at(100))
  }
}
