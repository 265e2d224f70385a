import Foundation
import Glibc
import DeviceContract
import MorseTestSupport
import Testing

@testable import TransmitterControl

/// An LED and a runtime directory shared with group `leds` exactly as the package makes them,
/// for the tests of the shared directory as a trust boundary; the member of the group is
/// `nobody` (uid and gid 65534), whose group the directory and the LED's files belong to.
enum SharedLED {
  static let member: UInt32 = 65_534

  /// An LED as the package's udev rule leaves it for group `leds` (here 65534): its switches
  /// group-writable; `power/control` (pruned by the rule) and a `device` link to a root-only
  /// attribute of the parent device, as on a real input LED.
  static func make() throws -> (TemporaryLEDDirectory, runtime: String) {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock", trigger: "[none] timer kbd-capslock")
    let device = fixture.devicePath(of: "input3::capslock")
    for attribute in ["brightness", "trigger"] {
      chown(device + "/" + attribute, 0, member)
      chmod(device + "/" + attribute, 0o664)
    }
    try FileManager.default.createDirectory(
      atPath: device + "/power", withIntermediateDirectories: true)
    try fixture.write("auto\n", to: "power/control", of: "input3::capslock")
    let parent = fixture.root + "/devices/input3"
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    try Data("0\n".utf8).write(to: URL(fileURLWithPath: parent + "/inhibited"))
    try FileManager.default.createSymbolicLink(
      atPath: device + "/device", withDestinationPath: parent)
    let runtime = fixture.root + "/run"
    try MorsetorchProcess.shareRuntimeDirectory(runtime)
    return (fixture, runtime)
  }

  /// What a SIGKILLed sender leaves, an empty lock and its record: by default as a member
  /// would plant them (theirs), or root's own. Returns the record's path.
  @discardableResult
  static func plant(
    _ saved: SavedFields, name: String, runtime: String, owner: UInt32 = member
  ) throws -> String {
    let files = RuntimeFiles(name: name, directory: try RuntimeDirectory(path: runtime))
    let device = try #require(DeviceID(lockName: name))
    try files.writeRecord(
      TransmissionRecord(pid: 99_999, device: device, text: "x", totalSymbols: 1, saved: saved))
    _ = try files.openLockFile()
    chown(files.record, owner, owner)
    chown(files.lock, owner, owner)
    return files.record
  }

  static func run(
    _ arguments: [String], _ fixture: TemporaryLEDDirectory, runtime: String,
    environment: [String: String] = [:]
  ) throws -> MorsetorchProcess.Outcome {
    try MorsetorchProcess.run(
      arguments, ledsDirectory: fixture.ledsPath, environment: environment,
      runtimeDirectory: runtime)
  }
}

extension SharedLED {
  /// Runs `script` with `/bin/sh` as the member (uid and gid 65534, no other group); its exit
  /// status.
  @discardableResult
  static func asMember(_ script: String) throws -> Int32 {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    shell.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script]
    try shell.run()
    shell.waitUntilExit()
    return shell.terminationStatus
  }

  /// A second LED whose files only root may write, beside `input3::capslock`.
  static func addRootsOwnLED(_ fixture: TemporaryLEDDirectory) throws -> String {
    let name = "input4::numlock"
    try fixture.addLED(name, trigger: "[none] timer kbd-numlock")
    return name
  }
}

/// A member's process that holds `NAME.lock` (or another suffix) with a POSIX lock, listens on `NAME.stop`, never
/// answers and ignores SIGTERM (Perl, which every Debian has): the worst holder `stop` meets.
/// It writes a line to `NAME.asked` when a request comes in.
final class HostileHolder {
  private let process = Process()
  private let output = Pipe()

  init(runtime: String, name: String, lockSuffix: String = ".lock") throws {
    let script = #"""
      use Fcntl; use IO::Socket::UNIX; $SIG{TERM} = "IGNORE"; my ($run, $name, $suffix) = @ARGV;
      sysopen(my $lock, "$run/$name$suffix", O_RDWR | O_CREAT, 0664) or die "open: $!";
      my $region = pack("s s x4 q q i x4", F_WRLCK, 0, 0, 0, 0);
      fcntl($lock, F_SETLK, $region) or die "lock: $!";
      my $door = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => "$run/$name.stop",
        Listen => 16) or die "listen: $!";
      $| = 1; print "ready\n";
      while (my $asked = $door->accept) {
        open(my $note, ">>", "$run/$name.asked"); print $note "asked\n"; close($note);
        push @kept, $asked;
      }
      """#
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/perl", "-e", script,
      runtime, name, lockSuffix,
    ]
    process.standardOutput = output
    try process.run()
    let ready = output.fileHandleForReading.availableData
    guard String(decoding: ready, as: UTF8.self).hasPrefix("ready") else {
      process.terminate()
      throw HostileHolderError.notReady
    }
  }

  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// The holder's pid, as morsetorch names it.
  var pid: Int32 { process.processIdentifier }
}

/// The hostile holder did not get its lock and socket.
enum HostileHolderError: Error {
  case notReady
}
