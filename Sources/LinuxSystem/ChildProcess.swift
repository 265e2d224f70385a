import CLinuxSystem
import Glibc

/// Starting another program (`posix_spawn(3)`) and waiting for it (`waitpid(2)`).
public enum ChildProcess {
  /// Starts `path` with `arguments` (argv[0] first) and `environment`. Each descriptor in
  /// `descriptors` is `dup2`'d in the child, standard input is /dev/null, and the
  /// child starts with no signal blocked and the default actions for `defaultSignals`.
  /// With `isInOwnProcessGroup`, the child leads a process group of its own
  /// (`POSIX_SPAWN_SETPGROUP`): the terminal's Ctrl-C, Ctrl-\ and Ctrl-Z reach this process
  /// alone, which ends the child as it means to.
  public static func spawn(
    _ path: String, arguments: [String], environment: [String: String],
    descriptors: SpawnDescriptors = SpawnDescriptors(), defaultSignals: [Int32],
    isInOwnProcessGroup: Bool = false
  ) throws(Errno) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (source, target) in descriptors.pairs {
      posix_spawn_file_actions_adddup2(&actions, source, target)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in defaultSignals { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if isInOwnProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pid: pid_t = 0
    let status = SystemCall.withCStrings(arguments) { argv in
      SystemCall.withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
        posix_spawn(&pid, path, &actions, &attributes, argv, envp)
      }
    }
    if status != 0 { throw Errno(code: status) }
    return pid
  }

  /// `waitpid(2)`: the exit status of `pid`, 128 + the signal if a signal ended it.
  public static func waitForExit(_ pid: Int32) throws(Errno) -> Int32 {
    var status: Int32 = 0
    _ = try SystemCall.retryingOnInterrupt { waitpid(pid, &status, 0) }
    return exitStatus(status)
  }

  /// `waitpid(2)` with `WNOHANG`: the exit status of `pid` (as `waitForExit` gives it) if it
  /// has ended, nil while it runs.
  public static func exitStatusIfEnded(_ pid: Int32) throws(Errno) -> Int32? {
    var status: Int32 = 0
    let ended = morse_child_ended(pid, &status)
    if ended == -1 { throw Errno.current }
    return ended == 1 ? exitStatus(status) : nil
  }

  /// A raw `waitpid` status as an exit status: 128 + the signal if a signal ended it.
  private static func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}
