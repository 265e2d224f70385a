import Foundation
import MorseTestSupport
import Testing

@testable import LinuxSystem

@Suite("Errno")
struct ErrnoTests {
  @Test func errnoShowsTextAndSymbolicName() {
    let denied = Errno(code: EACCES)
    #expect(denied.name == "EACCES")
    #expect(denied.message == "Permission denied")
    #expect(denied.description == "Permission denied (EACCES)")
    #expect(Errno(code: EBUSY).name == "EBUSY")
    #expect(Errno(code: ENODEV).name == "ENODEV")
  }

  @Test func errnoWithoutKnownNameStillDescribesItself() {
    let unknown = Errno(code: 4242)
    #expect(unknown.name == "errno 4242")
    #expect(!unknown.message.isEmpty)
  }

  @Test func errnosAreEqualByCode() {
    #expect(Errno(code: ENOENT) == Errno(code: ENOENT))
    #expect(Errno(code: ENOENT) != Errno(code: ENXIO))
    #expect(Set([Errno(code: EIO), Errno(code: EIO)]).count == 1)
  }

  @Test func errnoIsABareCode() {
    #expect(MemoryLayout<Errno>.size == MemoryLayout<Int32>.size)
  }

  @Test func mappingTurnsTheThrownErrnoIntoTheAreasError() {
    struct Failure: Error, Equatable { let errno: Errno }
    #expect(throws: Failure(errno: .busy)) {
      try Errno.mapping { () throws(Errno) in
        throw .busy
      } to: {
        Failure(errno: $0)
      }
    }
    #expect(
      (try? Errno.mapping {
        7
      } to: {
        Failure(errno: $0)
      }) == 7)
  }
}
