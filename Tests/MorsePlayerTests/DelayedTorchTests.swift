import DeviceContract
import Instants
import LinuxSystem
import MorseTestSupport
import Testing

@testable import MorsePlayer

/// A torch that shows `latency` after a switch (a sound), recording when it was switched.
private final class LatentTorch: Torch {
  let recording: RecordingTorch
  let latency: Duration
  init(_ recording: RecordingTorch, latency: Duration) {
    self.recording = recording
    self.latency = latency
  }
  func set(_ isOn: Bool) throws { try recording.set(isOn) }
  func restore() throws { recording.restore() }
}

/// Holding a device back for one heard later: each switch made its delay after the call, in
/// order, on the monotonic clock; drained before a planned end, dropped at a stop. These wait
/// for real (a thread waits for real deadlines), tens of milliseconds at most, and assert
/// order and lower bounds only.
@Suite struct DelayedTorchTests {
  let clock = SystemStepClock()

  @Test func eachSwitchIsMadeItsDelayAfterTheCallInOrderAndDrainWaitsForThem() throws {
    let recording = RecordingTorch(clock: clock)
    let delayed = DelayedTorch(recording, by: .milliseconds(30))
    let start = clock.now()
    try delayed.set(true)
    try delayed.set(false)
    #expect(recording.events.isEmpty)
    try delayed.drain()
    #expect(recording.events.map(\.isOn) == [true, false])
    let first = recording.events[0].milliseconds - milliseconds(start)
    #expect(first >= 30)
    try delayed.restore()
    #expect(recording.restoreCount == 1)
  }

  @Test func aRestoreDropsWhatIsPendingAndEndsAtOnce() throws {
    let recording = RecordingTorch(clock: clock)
    let delayed = DelayedTorch(recording, by: .seconds(3600))
    try delayed.set(true)
    // Without the drop, the switch an hour away would be waited for: the test would not end.
    try delayed.restore()
    #expect(recording.events.isEmpty)
    #expect(recording.restoreCount == 1)
  }

  @Test func aFailedSwitchIsThrownByTheNextAndReportedAtOnce() throws {
    let recording = RecordingTorch(clock: clock, failAtSet: 1)
    let delayed = DelayedTorch(recording, by: .milliseconds(1))
    let cancellation = Cancellation()
    delayed.reportFailures(to: cancellation)
    try delayed.set(true)
    cancellation.waitUntilCancelled()
    #expect(throws: RecordingTorch.InjectedFailure.self) { try delayed.set(false) }
    #expect(throws: RecordingTorch.InjectedFailure.self) { try delayed.drain() }
    try delayed.restore()
  }

  @Test func aGroupHoldsBackEveryMemberThatShowsSoonerThanTheLatest() throws {
    let led = RecordingTorch(clock: clock)
    let sound = LatentTorch(RecordingTorch(clock: clock), latency: .milliseconds(40))
    let group = TorchGroup([led, sound])
    #expect(group.latency == .milliseconds(40))
    #expect(group.members.count == 2 && group.members[0] === led)
    let start = clock.now()
    try group.set(true)
    // The sound is switched at once (it is heard 40 ms later); the LED 40 ms later.
    #expect(sound.recording.events.map(\.isOn) == [true])
    #expect(led.events.isEmpty)
    try group.drain()
    #expect(led.events.map(\.isOn) == [true])
    #expect(led.events[0].milliseconds - milliseconds(start) >= 40)
    #expect(group.restoreEach().allSatisfy { (try? $0.get()) != nil })
    #expect(led.restoreCount == 1 && sound.recording.restoreCount == 1)
  }

  @Test func aGroupOfTorchesThatShowAtOnceHoldsNothingBack() throws {
    let members = [RecordingTorch(clock: clock), RecordingTorch(clock: clock)]
    let group = TorchGroup(members)
    #expect(group.latency == .zero)
    try group.set(true)
    #expect(members.allSatisfy { $0.events.map(\.isOn) == [true] })
  }

  private func milliseconds(_ instant: MonotonicInstant) -> Double {
    let since = instant.sinceOrigin.components
    return Double(since.seconds) * 1000 + Double(since.attoseconds) / 1e15
  }
}
