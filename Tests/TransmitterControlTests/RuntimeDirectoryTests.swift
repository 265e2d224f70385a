import Foundation
import LEDDriver
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import TransmitterControl

@Suite("RuntimeDirectory")
struct RuntimeDirectoryTests {
  @Test func missingDirectoryIsCreatedPrivate() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/run"
    let directory = try RuntimeDirectory(path: path)
    #expect(directory.path == path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
  }

  @Test func environmentVariableWins() throws {
    let fixture = try TemporaryLEDDirectory()
    let directory = try RuntimeDirectory(environment: [
      "MORSETORCH_RUNTIME_DIR": fixture.root + "/mine", "XDG_RUNTIME_DIR": "/nonexistent",
    ])
    #expect(directory.path == fixture.root + "/mine")
  }

  @Test func aSymlinkIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    try FileManager.default.createDirectory(
      atPath: fixture.root + "/real", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.root + "/link", withDestinationPath: fixture.root + "/real")
    #expect {
      _ = try RuntimeDirectory(path: fixture.root + "/link")
    } throws: { error in
      guard case .unsafeDirectory(_, let reason) = error as? ControlError else { return false }
      return reason.contains("symlink")
    }
  }

  @Test func aDirectoryEveryoneMayWriteIsRefusedEvenWithTheStickyBit() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/open"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o1777)
    #expect(
      throws: ControlError.unsafeDirectory(path: path, reason: "everyone may write in it")
    ) {
      _ = try RuntimeDirectory(path: path)
    }
  }

  @Test(.enabled(if: getuid() == 0, "needs root to give a directory away"))
  func aDirectoryOfAnotherUserIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/theirs"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chown(path, 65_534, 65_534)
    #expect {
      _ = try RuntimeDirectory(path: path)
    } throws: { error in
      guard case .unsafeDirectory(_, let reason) = error as? ControlError else { return false }
      return reason.contains("another user")
    }
  }

  @Test func aFileWhereTheDirectoryShouldBeIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/file"
    try "x".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(throws: ControlError.self) { _ = try RuntimeDirectory(path: path) }
  }

  @Test func errorsSayWhatToDo() {
    let message = ControlError.unsafeDirectory(path: "/x", reason: "everyone may write in it")
      .description
    #expect(message.contains("/x"))
    #expect(message.contains("MORSETORCH_RUNTIME_DIR"))
  }

  @Test func withoutRunOrXDGRuntimeDirAPrivateDirectoryInTmpIsUsed() throws {
    let fixture = try TemporaryLEDDirectory()
    let places = RuntimeDirectory.Places(
      shared: [fixture.root + "/no-run/morsetorch", fixture.root + "/no-var-run/morsetorch"],
      temporary: fixture.root)
    let directory = try RuntimeDirectory(environment: [:], places: places)
    #expect(directory.path == fixture.root + "/morsetorch-\(geteuid())")
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
  }

  @Test func xdgRuntimeDirComesBeforeTmp() throws {
    let fixture = try TemporaryLEDDirectory()
    let places = RuntimeDirectory.Places(
      shared: [fixture.root + "/no-run/morsetorch"], temporary: fixture.root + "/tmp")
    let directory = try RuntimeDirectory(
      environment: ["XDG_RUNTIME_DIR": fixture.root], places: places)
    #expect(directory.path == fixture.root + "/morsetorch")
  }

  @Test(.enabled(if: geteuid() == 0, "root makes the shared directory"))
  func rootTakesTheFirstSharedPlaceWhoseParentExists() throws {
    let fixture = try TemporaryLEDDirectory()
    try FileManager.default.createDirectory(
      atPath: fixture.root + "/var-run", withIntermediateDirectories: true)
    let places = RuntimeDirectory.Places(
      shared: [fixture.root + "/run/morsetorch", fixture.root + "/var-run/morsetorch"],
      temporary: fixture.root + "/tmp")
    let directory = try RuntimeDirectory(environment: [:], places: places)
    #expect(directory.path == fixture.root + "/var-run/morsetorch")
  }

  @Test(.enabled(if: geteuid() == 0, "root makes the shared directory"))
  func theOtherPlacesOfThisUsersAreLookedInAndOnlyThose() throws {
    let fixture = try TemporaryLEDDirectory()
    let (run, temporary) = (fixture.root + "/run", fixture.root + "/tmp")
    for path in [run, temporary] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    let places = RuntimeDirectory.Places(
      shared: [run + "/morsetorch", fixture.root + "/var-run/morsetorch"], temporary: temporary)
    let earlier = try RuntimeDirectory(path: temporary + "/morsetorch-\(geteuid())")
    try FileManager.default.createDirectory(
      atPath: fixture.root + "/xdg-planted", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: fixture.root + "/xdg", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.root + "/xdg/morsetorch", withDestinationPath: fixture.root + "/xdg-planted")
    let directory = try RuntimeDirectory(
      environment: ["XDG_RUNTIME_DIR": fixture.root + "/xdg"], places: places)
    #expect(directory.path == run + "/morsetorch")
    #expect(directory.unshared == nil)
    // The missing shared place and the symlink are no places to look in.
    #expect(directory.others.map(\.path) == [earlier.path])
  }

  @Test func aMemberWhoFallsBackToADirectoryOfHerOwnIsToldWhy() throws {
    let fixture = try TemporaryLEDDirectory()
    let places = RuntimeDirectory.Places(
      shared: [fixture.root + "/no-run/morsetorch"], temporary: fixture.root,
      group: getegid())
    let directory = try RuntimeDirectory(environment: [:], places: places)
    #expect(directory.unshared?.missing == (geteuid() == 0 ? nil : places.shared[0]))
    #expect(directory.unshared?.used == (geteuid() == 0 ? nil : directory.path))
    let outside = RuntimeDirectory.Places(
      shared: places.shared, temporary: fixture.root, group: getegid() &+ 1)
    #expect(try RuntimeDirectory(environment: [:], places: outside).unshared == nil)
  }

  @Test func aTmpDirectoryPlantedByAnotherUserIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    let planted = fixture.root + "/morsetorch-\(geteuid())"
    try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
    chmod(planted, 0o777)
    let places = RuntimeDirectory.Places(shared: [], temporary: fixture.root)
    #expect(throws: ControlError.self) {
      _ = try RuntimeDirectory(environment: [:], places: places)
    }
  }
}

@Suite("The shared runtime directory's rules")
struct SharedRuntimeRulesTests {
  @Test func aGroupWritableDirectoryMustBeSticky() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/run"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o2770)
    #expect {
      _ = try RuntimeDirectory(path: path)
    } throws: { error in
      guard case .unsafeDirectory(_, let reason) = error as? ControlError else { return false }
      return reason.contains("sticky") && reason.contains("chmod 3770")
    }
    chmod(path, 0o3770)
    #expect(try RuntimeDirectory(path: path).path == path)
  }

  @Test func aLockHeldByAnOpenFileDescriptionIsAnErrorNamingItNeverAHolder() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    let path = runtime.path + "/led.lock"
    let lock = try #require(OpenFileDescriptionLock(path: path))
    defer { withExtendedLifetime(lock) {} }
    let expected = ControlError.lockNotHeldByProcess(path: path, pid: -1)
    #expect(throws: expected) { _ = try DeviceLock.tryAcquire(.led("led"), in: runtime) }
    #expect(throws: expected) { _ = try Transmissions.holder(of: .led("led"), in: runtime) }
    #expect(throws: expected) { _ = try Transmissions.stop(.led("led"), in: runtime) }
  }

  @Test func aLockFileRemovedAfterItWasLockedIsNotTheLock() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    guard case .acquired(let first) = try DeviceLock.tryAcquire(.led("led"), in: runtime) else {
      Issue.record("not acquired")
      return
    }
    let files = RuntimeFiles(name: "led", directory: runtime)
    let held = try FileDescriptor.open(files.lock, .readOnly)
    let before = RuntimeFiles.isStill(held, at: files.lock)
    try FileSystem.unlink(files.lock)
    let after = RuntimeFiles.isStill(held, at: files.lock)
    #expect(before)
    #expect(!after)
    first.release()
  }

  @Test func aNameWhoseFilesWouldNotFitIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    let name = String(repeating: ".", count: 80)  // 240 bytes once escaped
    #expect(throws: ControlError.nameTooLong(name: name, limit: RuntimeFiles.stemLimit)) {
      _ = try DeviceLock.tryAcquire(.led(name), in: runtime)
    }
    let fits = try DeviceLock.tryAcquire(.led(String(repeating: ".", count: 70)), in: runtime)
    guard case .acquired = fits else {
      Issue.record("a name that fits was not taken")
      return
    }
  }
}
