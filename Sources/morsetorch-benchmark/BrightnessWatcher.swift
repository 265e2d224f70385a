import Foundation
import LinuxSystem

/// One LED of the benchmark: its class directory, its device directory, its name.
struct BenchLED {
  let root: String
  let classDirectory: String
  let device: String
  var brightness: String { device + "/brightness" }
}

/// An LED edge a watcher saw: when (CLOCK_MONOTONIC, ns) and whether it went on.
struct SeenEdge {
  let nanoseconds: Int64
  let isOn: Bool
}

func monotonicNanoseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Timestamps every change of a brightness file from outside the process that writes it:
/// inotify reports each write (`IN_MODIFY`, `IN_CLOSE_WRITE`), the file is read at once, and a
/// change between zero and non-zero is an edge. An empty read (a writer that truncates first)
/// is no value.
final class BrightnessWatcher: @unchecked Sendable {
  private let path: String
  private let watch: Int32
  private let stopPipe: [Int32]
  private var thread: Thread?
  private let done = DispatchSemaphore(value: 0)
  private(set) var edges: [SeenEdge] = []
  private(set) var isRealTime = false

  init?(path: String) {
    self.path = path
    watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    var pipeEnds: [Int32] = [0, 0]
    guard watch >= 0, inotify_add_watch(watch, path, UInt32(IN_MODIFY | IN_CLOSE_WRITE)) >= 0,
      pipe(&pipeEnds) == 0
    else { return nil }
    stopPipe = pipeEnds
  }

  deinit {
    close(watch)
    close(stopPipe[0])
    close(stopPipe[1])
  }

  /// Starts watching; the thread is running (and raised) when this returns.
  func start() {
    let ready = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      var parameters = sched_param(sched_priority: 20)
      isRealTime = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
      ready.signal()
      run()
      done.signal()
    }
    thread.start()
    self.thread = thread
    ready.wait()
  }

  /// Stops watching and returns the edges seen.
  func stop() -> [SeenEdge] {
    var byte: UInt8 = 1
    _ = write(stopPipe[1], &byte, 1)
    done.wait()
    return edges
  }

  private func value() -> Int? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return nil }
    // The first number: a writer that rewrites at offset 0 without truncating leaves the
    // tail of a longer value after its newline ("0\n5\n").
    var number = 0
    var digits = 0
    for byte in buffer[..<count] {
      guard byte >= 0x30 && byte <= 0x39 else { break }
      number = number * 10 + Int(byte - 0x30)
      digits += 1
    }
    return digits > 0 ? number : nil
  }

  private func run() {
    var lastIsOn = (value() ?? 0) != 0
    var events = [UInt8](repeating: 0, count: 4096)
    var requests = [
      pollfd(fd: watch, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
    ]
    while true {
      guard poll(&requests, 2, -1) >= 0 || errno == EINTR else { return }
      if requests[1].revents != 0 { return }
      guard requests[0].revents != 0 else { continue }
      let now = monotonicNanoseconds()
      while read(watch, &events, events.count) > 0 {}
      guard let value = value() else { continue }
      if (value != 0) != lastIsOn {
        lastIsOn = value != 0
        edges.append(SeenEdge(nanoseconds: now, isOn: lastIsOn))
      }
    }
  }
}
