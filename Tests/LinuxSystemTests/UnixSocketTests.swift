import Foundation
import Glibc
import MorseTestSupport
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
}
