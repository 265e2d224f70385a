import Foundation
import MorseTestSupport
import Testing

@testable import LinuxSystem

@Suite("SystemCall")
struct SystemCallTests {
  @Test func interruptedCallsAreRetried() throws {
    var calls = 0
    let result = try SystemCall.retryingOnInterrupt { () -> Int32 in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 3)
  }

  @Test func otherFailuresThrowTheirErrno() {
    var calls = 0
    #expect(throws: Errno(code: EACCES)) {
      _ = try SystemCall.retryingOnInterrupt { () -> Int in
        calls += 1
        errno = EACCES
        return -1
      }
    }
    #expect(calls == 1)
  }

  @Test func nonNegativeResultsPassThrough() throws {
    #expect(try SystemCall.retryingOnInterrupt { Int32(0) } == 0)
    #expect(try SystemCall.retryingOnInterrupt { Int(-2) } == -2)
  }
}
