import Glibc
import LinuxSystem
import MorseTestSupport
import SerialDriver
import Testing

@Suite("SerialLockFile")
struct SerialLockFileTests {
  private let directory: TemporaryDirectory
  private let locks: SerialLockFile

  init() throws {
    directory = try TemporaryDirectory("serial-locks")
    locks = SerialLockFile(directory: directory.path)
  }

  private var lockPath: String { locks.path(of: "ttyUSB0") }

  private func plant(_ text: String, at path: String? = nil) throws {
    let fd = open(path ?? lockPath, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    #expect(fd >= 0)
    _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    close(fd)
  }

  @Test func theLockHoldsThePidInTenColumnsAndGoesWithItsOwner() throws {
    #expect(try locks.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242))
    #expect(try FileSystem.readFile(lockPath) == Array("      4242\n".utf8))
    locks.release("ttyUSB0", pid: 4343)
    #expect(FileSystem.exists(lockPath), "another pid's lock was removed")
    locks.release("ttyUSB0", pid: 4242)
    #expect(!FileSystem.exists(lockPath))
  }

  @Test func aRunningHolderMakesThePortBusyByName() throws {
    try plant("  \(getppid())\n")
    #expect(
      throws: SerialError.lockedBy(path: "/dev/ttyUSB0", lockFile: lockPath, pid: getppid())
    ) { try locks.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242) }
  }

  @Test func aStaleLockIsTakenOver() throws {
    // A pid no process has: past the kernel's largest.
    try plant("   4194305\n")
    #expect(try locks.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242))
    #expect(try FileSystem.readFile(lockPath) == Array("      4242\n".utf8))
  }

  @Test func whatIsNoLockIsNotFollowedOrRemoved() throws {
    // A symlink planted where the lock goes: nothing written through it, and it stays.
    let target = directory.path + "/target"
    try plant("", at: target)
    #expect(symlink(target, lockPath) == 0)
    #expect(throws: SerialError.self) {
      try locks.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242)
    }
    #expect(try FileSystem.readFile(target).isEmpty)
    #expect(FileSystem.exists(lockPath))
    #expect(unlink(lockPath) == 0)
    // Text that names no pid, a directory: busy, and left alone.
    try plant("hello\n")
    #expect(
      throws: SerialError.lockedBy(path: "/dev/ttyUSB0", lockFile: lockPath, pid: nil)
    ) { try locks.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242) }
    #expect(unlink(lockPath) == 0 && mkdir(lockPath, 0o755) == 0)
    #expect(throws: SerialError.self) {
      try locks.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242)
    }
  }

  @Test func withNoLockDirectoryTheConventionIsLeftAside() throws {
    let missing = SerialLockFile(directory: directory.path + "/none")
    #expect(try missing.acquire("ttyUSB0", port: "/dev/ttyUSB0", pid: 4242) == false)
  }
}
