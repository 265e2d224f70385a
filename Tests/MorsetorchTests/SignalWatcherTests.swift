import Foundation
import Instants
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing
import TransmitterControl

@testable import MorsetorchTool

@Suite(.serialized) struct SignalWatcherTests {
  @Test func aRaisedSignalReachesTheHandlerOnItsThread() throws {
    let received = Cancellation()
    let number = Counter()
    let watcher = try SignalWatcher(signals: [SIGUSR1]) { signal in
      if signal == SIGUSR1 { number.increment() }
      received.cancel()
    }
    defer { watcher.stop() }
    raise(SIGUSR1)
    // Bounded: a watcher that never calls back fails here instead of hanging.
    let deadline = SystemStepClock().now() + .seconds(10)
    #expect(received.wait(untilMonotonic: deadline) == false, "the handler was called")
    #expect(number.value == 1)
  }

  @Test func stopPutsThePreviousHandlerBack() throws {
    var previous = sigaction()
    sigaction(SIGUSR2, nil, &previous)
    let watcher = try SignalWatcher(signals: [SIGUSR2]) { _ in }
    var during = sigaction()
    sigaction(SIGUSR2, nil, &during)
    watcher.stop()
    var after = sigaction()
    sigaction(SIGUSR2, nil, &after)
    #expect(
      unsafeBitCast(during.__sigaction_handler.sa_handler, to: Int.self)
        != unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self))
    #expect(
      unsafeBitCast(after.__sigaction_handler.sa_handler, to: Int.self)
        == unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self))
  }

  @Test func anIgnoredSignalStaysIgnored() throws {
    let old = signal(SIGUSR2, SIG_IGN)
    defer { signal(SIGUSR2, old) }
    let watcher = try SignalWatcher(signals: [SIGUSR2]) { _ in }
    defer { watcher.stop() }
    var during = sigaction()
    sigaction(SIGUSR2, nil, &during)
    #expect(
      unsafeBitCast(during.__sigaction_handler.sa_handler, to: Int.self)
        == unsafeBitCast(SIG_IGN, to: Int.self))
  }

  @Test func theHandlerItselfFiresTheCancellation() throws {
    let cancellation = Cancellation()
    let handled = Cancellation()
    let watcher = try SignalWatcher(signals: [SIGUSR1], cancelling: cancellation) { _ in
      handled.cancel()
    }
    defer { watcher.stop() }
    let deadline = SystemStepClock().now() + .seconds(3600)
    raise(SIGUSR1)
    // raise(3) runs the handler before it returns: the switch is already thrown, and the
    // signal is known.
    #expect(cancellation.isCancelled)
    #expect(watcher.firstSignal == SIGUSR1)
    #expect(cancellation.wait(untilMonotonic: deadline) == false)
    #expect(handled.wait(untilMonotonic: SystemStepClock().now() + .seconds(10)) == false)
  }

  @Test func theFirstSignalIsKept() throws {
    let watcher = try SignalWatcher(signals: [SIGUSR1, SIGUSR2]) { _ in }
    defer { watcher.stop() }
    #expect(watcher.firstSignal == nil)
    raise(SIGUSR2)
    raise(SIGUSR1)
    #expect(watcher.firstSignal == SIGUSR2)
  }

  @Test func whatStoppedItIsTheSignalThatFiredFirstNotALaterOne() throws {
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(signals: [SIGUSR1, SIGUSR2], cancelling: cancellation) { _ in }
    defer { watcher.stop() }
    raise(SIGUSR2)
    raise(SIGUSR1)
    #expect(watcher.stoppingSignal == SIGUSR2)
  }

  @Test func aSignalAfterSomethingElseStoppedItIsNotWhatStoppedIt() throws {
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(signals: [SIGUSR1], cancelling: cancellation) { _ in }
    defer { watcher.stop() }
    #expect(cancellation.cancel())  // a stop request, say
    raise(SIGUSR1)
    // Before: the exit status named this later signal.
    #expect(watcher.stoppingSignal == nil)
    #expect(watcher.firstSignal == SIGUSR1)
    #expect(cancellation.cancel() == false)
  }
}
