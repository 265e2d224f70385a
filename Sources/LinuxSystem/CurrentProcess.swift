import CLinuxSystem
import Glibc

/// Facts about this process, and the calls that change how it lives.
public enum CurrentProcess {
  /// `getpid(2)`.
  public static var id: Int32 { getpid() }

  /// `geteuid(2)`.
  public static var effectiveUserID: UInt32 { geteuid() }

  /// `getuid(2)`.
  public static var realUserID: UInt32 { getuid() }

  /// `getegid(2)` and `getgroups(2)`: the groups whose rights this process has.
  public static var groupIDs: Set<UInt32> {
    var groups = [gid_t](repeating: 0, count: Int(max(getgroups(0, nil), 0)))
    let count = groups.isEmpty ? 0 : getgroups(Int32(groups.count), &groups)
    return Set(groups.prefix(Int(max(count, 0)))).union([getegid()])
  }

  /// `readlink("/proc/self/exe")`: the path of the running executable.
  public static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The environment variables, from `environ`: a name's first entry, as `getenv` finds it;
  /// an entry without `=` is left out, and bytes that are not UTF-8 are repaired. Read as
  /// bytes (no `Character` is formed: this runs before the first edge of every `send`).
  public static func environmentVariables() -> [String: String] {
    environmentVariables(from: environ)
  }

  /// The variables of `entries`, a null-terminated list of `NAME=value` strings like
  /// `environ`, as `environmentVariables()` reads them.
  public static func environmentVariables(
    from entries: UnsafePointer<UnsafeMutablePointer<CChar>?>
  ) -> [String: String] {
    var count = 0
    while entries[count] != nil { count += 1 }
    var result = [String: String](minimumCapacity: count)
    for index in 0..<count {
      guard let entry = entries[index] else { break }
      let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
        .bindMemory(to: UInt8.self)
      guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<equals]), as: UTF8.self)
      guard result[name] == nil else { continue }
      result[name] = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]), as: UTF8.self)
    }
    return result
  }

  /// The bytes of each command-line argument after the program's name, given to `body` one
  /// at a time (1 is the first), without a copy.
  public static func withEachArgument<Result, Failure: Error>(
    _ body: (_ position: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> [Result] {
    let (count, values) = arguments
    var results: [Result] = []
    results.reserveCapacity(max(0, count - 1))
    for position in 1..<max(1, count) {
      guard let pointer = values[position] else { break }
      let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
        .bindMemory(to: UInt8.self)
      results.append(try body(position, bytes))
    }
    return results
  }

  /// Why the command line could not be read, if it could not: no argument at all, not even
  /// the program's name, and /proc/self/cmdline cannot be opened (`open(2)`'s error, such as
  /// `EMFILE` with no descriptor free). nil when there are arguments, or when a program was
  /// really started with none (`execve` with an empty argv before Linux 5.18).
  public static func commandLineProblem() -> Errno? {
    guard arguments.count == 0 else { return nil }
    let descriptor = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .current }
    close(descriptor)
    return nil
  }

  /// argc and argv: as the C library gave them to the constructors before main (no
  /// descriptor needed: `morse_saved_arguments`), else as Swift's runtime found them.
  private static var arguments: (
    count: Int, values: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  ) {
    var count: Int32 = 0
    if let saved = morse_saved_arguments(&count), count > 0 { return (Int(count), saved) }
    return (Int(CommandLine.argc), CommandLine.unsafeArgv)
  }

  /// `exit(3)`: ends the process with `status`, flushing C's standard streams.
  public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

  /// `setsid(2)`: a session of its own, away from the terminal (and its hangup).
  public static func startSession() { _ = setsid() }

  /// `close(2)` of every descriptor above standard error but `keep` (listed in /proc/self/fd).
  public static func closeInheritedDescriptors(keeping keep: borrowing FileDescriptor) {
    let names = (try? FileSystem.directoryEntries("/proc/self/fd")) ?? []
    for descriptor in names.compactMap(Int32.init)
    where descriptor > 2 && descriptor != keep.rawValue {
      Glibc.close(descriptor)
    }
  }

  /// Takes ownership of an inherited descriptor named by number (say, in an environment
  /// variable); nil unless it is above standard error and open.
  public static func adoptInheritedDescriptor(_ number: Int32) -> FileDescriptor? {
    guard number > 2, fcntl(number, F_GETFD) != -1 else { return nil }
    _ = fcntl(number, F_SETFD, FD_CLOEXEC)
    return FileDescriptor(owning: number)
  }
}
