import Foundation
import Glibc
import LinuxSystem
import MorseTestSupport
import Testing

@testable import TransmitterControl

/// A lock this process holds survives another name of its file: closing any descriptor of a
/// file ends every POSIX lock the process holds on it, and a member of the group may link a
/// lock file under a name this process opens next (another device's lock, a record, a ticket).
@Suite("Links to a held lock")
struct HeldLockLinkTests {
  private let fixture: TemporaryLEDDirectory
  private let runtime: RuntimeDirectory
  private let a: DeviceLock
  private let aFiles: RuntimeFiles

  init() throws {
    fixture = try TemporaryLEDDirectory()
    runtime = try RuntimeDirectory(path: fixture.root + "/run")
    guard case .acquired(let lock) = try DeviceLock.tryAcquire(.led("a"), in: runtime) else {
      throw HeldLockLinkError.busy
    }
    a = lock
    aFiles = RuntimeFiles(name: "a", directory: runtime)
  }

  /// Whether this process still holds its write lock on `a`'s lock file (/proc/locks).
  private var isAStillHeld: Bool {
    get throws {
      let identity = try FileSystem.linkStatus(aFiles.lock).identity
      return RecordLockTable.writeLocks(of: CurrentProcess.id, onFileSystemOf: identity)
        .contains(identity)
    }
  }

  @Test func takingADeviceWhoseLockFileIsALinkToAHeldOneKeepsBoth() throws {
    let bFiles = RuntimeFiles(name: "b", directory: runtime)
    #expect(link(aFiles.lock, bFiles.lock) == 0)
    guard case .acquired(let b) = try DeviceLock.tryAcquire(.led("b"), in: runtime) else {
      Issue.record("b was taken for busy")
      return
    }
    #expect(try isAStillHeld)
    // b's lock is a file of its own now.
    #expect(try FileSystem.linkStatus(bFiles.lock).identity
      != FileSystem.linkStatus(aFiles.lock).identity)
    withExtendedLifetime((a, b)) {}
  }

  @Test func readingARecordThatIsALinkToTheHeldLockKeepsIt() throws {
    #expect(link(aFiles.lock, aFiles.record) == 0)
    guard case .done(let isNone, _, _) = a.leftoverRecord() else {
      Issue.record("a link to the lock file read as a record")
      return
    }
    #expect(!isNone)
    #expect(try isAStillHeld)
  }

  @Test func lookingOverTicketsThatAreLinksToTheHeldLockKeepsIt() throws {
    let bFiles = RuntimeFiles(name: "b", directory: runtime)
    #expect(link(aFiles.lock, runtime.path + "/b.wait.00000000000000000001") == 0)
    _ = try bFiles.ticket(before: 5)
    _ = try bFiles.liveTickets()
    #expect(try isAStillHeld)
    #expect(throws: ControlError.self) { try bFiles.waitForRelease(of: aFiles.lock) }
    #expect(try isAStillHeld)
  }

  @Test func theLockEndsWithItsOwnDescriptorAndTheKeptOnesWithIt() throws {
    #expect(link(aFiles.lock, aFiles.record) == 0)
    _ = a.leftoverRecord()
    a.release()
    #expect(try !isAStillHeld)
    guard case .acquired = try DeviceLock.tryAcquire(.led("a"), in: runtime) else {
      Issue.record("a stayed locked")
      return
    }
  }
}

private enum HeldLockLinkError: Error {
  case busy
}
