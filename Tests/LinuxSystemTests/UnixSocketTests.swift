import Foundation
import Glibc
import Instants
import MorseTestSupport
import Synchronization
import Testing

@testable import LinuxSystem

@Suite("UnixSocket")
struct UnixSocketTests {
  @Test func aListeningSocketHasExactlyItsPermissionsWhateverTheUmask() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/door"
    let socket = try UnixSocket.listen(at: path, permissions: 0o660)
    defer { socket.shutDown() }
    #expect(try FileSystem.linkStatus(path).permissions == 0o660)
    #expect(try FileSystem.linkStatus(path).isSocket)
  }

  @Test func connectingToAListenerThatNeverAcceptsFailsAtOnceWhenItsQueueIsFull() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/squatter"
    // A listener with the shortest queue that never accepts, its queue filled by others.
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let size = socklen_t(MemoryLayout<sockaddr_un>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) }
    }
    try #require(bound == 0 && listen(listener, 0) == 0)
    var fillers: [Int32] = []
    defer { (fillers + [listener]).forEach { _ = close($0) } }
    for _ in 0..<3 {
      let filler = socket(
        AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, size) }
      }
      fillers.append(filler)
    }
    // On a thread: a connect that waited would never return.
    let finished = OneShotEvent()
    let failure = Mutex<Errno?>(nil)
    try Threads.start {
      do throws(Errno) {
        _ = try UnixSocket.connect(to: path)
      } catch {
        failure.withLock { $0 = error }
      }
      _ = finished.fire()
    }
    // (False: it fired before the deadline.)
    #expect(!finished.wait(untilMonotonic: MonotonicTime.now() + .seconds(10)), "connect waited")
    #expect(failure.withLock { $0 } == .wouldBlock)
  }
}
