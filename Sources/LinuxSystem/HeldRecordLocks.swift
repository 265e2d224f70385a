import Glibc
import Synchronization

/// The files this process holds POSIX record locks on, and the descriptor that took each.
///
/// Closing any descriptor of a file releases every lock the process holds on it (fcntl(2)),
/// and in a directory shared with a group, anyone who may write a lock file may give it a
/// second name (a hard link): a descriptor opened on that name and closed again would end the
/// lock. So while a lock is held, another descriptor of its file is not closed but kept, and
/// closed with the one that took the lock; and a second lock on it, through another
/// descriptor, is refused (`EDEADLK`) rather than taken over the one held.
enum HeldRecordLocks {
  private struct State {
    /// The descriptor holding each locked file's lock.
    var holders: [FileStatus.Identity: Int32] = [:]
    /// Other descriptors of locked files, kept open until their file's lock is let go.
    var kept: [FileStatus.Identity: [Int32]] = [:]
  }

  private static let state = Mutex(State())

  /// Whether descriptor `raw` may take a lock on the file `identity`: no other descriptor of
  /// this process holds one on it.
  static func mayLock(_ identity: FileStatus.Identity, by raw: Int32) -> Bool {
    state.withLock { ($0.holders[identity] ?? raw) == raw }
  }

  /// Notes that descriptor `raw` now holds a lock on the file `identity`.
  static func didLock(_ identity: FileStatus.Identity, by raw: Int32) {
    state.withLock { $0.holders[identity] = $0.holders[identity] ?? raw }
  }

  /// Whether this process holds a lock on the file `identity`.
  static func isLocked(_ identity: FileStatus.Identity) -> Bool {
    state.withLock { $0.holders[identity] != nil }
  }

  /// `close(2)` of `raw`, or, for another descriptor of a locked file, keeping it open until
  /// the lock is let go (then 0). The holding descriptor's close also closes those kept.
  static func close(_ raw: Int32) -> Int32 {
    guard !state.withLock({ $0.holders.isEmpty }) else { return Glibc.close(raw) }
    var status = stat()
    guard fstat(raw, &status) == 0 else { return Glibc.close(raw) }
    let identity = FileStatus(status).identity
    let kept: [Int32]? = state.withLock { state in
      guard let holder = state.holders[identity] else { return [] }
      guard holder == raw else {
        state.kept[identity, default: []].append(raw)
        return nil
      }
      state.holders[identity] = nil
      return state.kept.removeValue(forKey: identity) ?? []
    }
    guard let kept else { return 0 }
    for other in kept { Glibc.close(other) }
    return Glibc.close(raw)
  }
}
