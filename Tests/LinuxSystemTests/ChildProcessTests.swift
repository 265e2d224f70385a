import Glibc
import LinuxSystem
import Testing

@Suite struct ChildProcessTests {
  /// What `/bin/sh -c script` writes to standard output, and its exit status.
  private func run(_ script: String, isInOwnProcessGroup: Bool) throws -> (String, Int32) {
    let output = try Pipe()
    var descriptors = SpawnDescriptors()
    descriptors.give(output.writeEnd, as: 1)
    let pid = try ChildProcess.spawn(
      "/bin/sh", arguments: ["sh", "-c", script], environment: [:], descriptors: descriptors,
      defaultSignals: [], isInOwnProcessGroup: isInOwnProcessGroup)
    let reader = output.closingWriteEnd()
    let bytes = try reader.readAll(limit: 4096)
    return (String(decoding: bytes, as: UTF8.self), try ChildProcess.waitForExit(pid))
  }

  /// A decoder's Ctrl-C is this process's: the child leads a group of its own, which the
  /// terminal's signals to this one's do not reach.
  @Test func aChildInItsOwnProcessGroupLeadsIt() throws {
    // The fifth field of /proc/self/stat is the process group; $$ the shell's own pid.
    let script = "read -r line </proc/$$/stat; set -- ${line##*) }; echo \"$$ $3\""
    let (own, status) = try run(script, isInOwnProcessGroup: true)
    #expect(status == 0)
    let ids = own.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    #expect(ids.count == 2 && ids[0] == ids[1], "pid and group: \(own)")
    let (shared, _) = try run(script, isInOwnProcessGroup: false)
    let group = shared.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }.last
    #expect(group == getpgrp(), "\(shared)")
  }
}
