import Foundation
import Instants
import LinuxSystem
import MorseCore
import MorsePlayer

/// Resident memory of this process in kB (`/proc/self/statm`, second field, in pages).
func residentKilobytes() -> Int {
  let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
  let pages = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// `--loop` of "SOS" at 20 WPM for `hours` of virtual time, with the memory it holds after one
/// minute and at the end: they must be the same (nothing kept per round).
func runLoop(hours: Int = 1) throws {
  let timing = try MorseTiming(wordsPerMinute: 20)
  let message = try MorseMessage("SOS")
  func loop(for duration: Duration) throws -> (switches: Int, seconds: Double) {
    let clock = VirtualStepClock()
    let cancellation = Cancellation()
    let torch = CountingTorch(clock: clock, end: clock.now() + duration, cancellation: cancellation)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: cancellation),
      timing: timing)
    let started = Date()
    _ = try transmitter.send(message, repetition: Repetition(count: nil, pause: timing.wordGap))
    return (torch.switches, Date().timeIntervalSince(started))
  }
  _ = try loop(for: .seconds(60))
  let before = residentKilobytes()
  let run = try loop(for: .seconds(3600 * hours))
  let after = residentKilobytes()
  let long = try loop(for: .seconds(36_000 * hours))
  let afterLong = residentKilobytes()
  print(
    "loop: \"SOS\" at 20 WPM, --loop in virtual time: \(run.switches) switches in \(hours) h "
      + "(\(String(format: "%.1f", run.seconds * 1000)) ms), \(long.switches) in \(10 * hours) h "
      + "(\(String(format: "%.1f", long.seconds * 1000)) ms); resident memory \(before) kB after "
      + "1 min, \(after) kB after \(hours) h, \(afterLong) kB after \(10 * hours) h more")
}
