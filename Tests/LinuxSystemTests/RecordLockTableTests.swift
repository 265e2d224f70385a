import Glibc
import MorseTestSupport
import Testing

@testable import LinuxSystem

@Suite struct RecordLockTableTests {
  @Test func aWriteLockOfThisProcessIsInTheTableWhateverTheFilesName() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/held.lock"
    let file = try FileDescriptor.open(path, [.readWrite, .create], permissions: 0o600)
    let other = try FileDescriptor.open(fixture.root + "/free.lock", [.readWrite, .create])
    let identity = try file.status().identity
    #expect(!RecordLockTable.writeLocks(of: getpid(), onFileSystemOf: identity).contains(identity))
    #expect(try file.lock(exclusive: true, wait: false))
    try FileSystem.rename(path, to: fixture.root + "/moved")
    let held = RecordLockTable.writeLocks(of: getpid(), onFileSystemOf: identity)
    #expect(held.contains(identity))
    #expect(!held.contains(try other.status().identity))
  }

  @Test func theHoldersOfAFileAreProcessesOrNoneForAnOpenFileDescriptionLock() throws {
    let fixture = try TemporaryLEDDirectory()
    let posix = try FileDescriptor.open(fixture.root + "/posix", [.readWrite, .create])
    let posixFile = try posix.status().identity
    #expect(RecordLockTable.holders(of: posixFile).isEmpty)
    #expect(try posix.lock(exclusive: true, wait: false))
    #expect(RecordLockTable.holders(of: posixFile) == [getpid()])
    let path = fixture.root + "/ofd"
    let ofd = try #require(OpenFileDescriptionLock(path: path))
    let ofdFile = try FileSystem.linkStatus(path).identity
    #expect(RecordLockTable.holders(of: ofdFile) == [-1])
    withExtendedLifetime(ofd) {}
  }

  @Test func aProcessRunsAsTheOwnerOfItsProcDirectory() {
    #expect(RecordLockTable.userID(of: getpid()) == geteuid())
    #expect(RecordLockTable.userID(of: -1) == nil)
  }
}
