import Instants
import LinuxSystem

/// The senders waiting in turn: `NAME.tickets` (whose lock orders ticket handling) and one
/// `NAME.wait.N` per waiting sender, locked by it.
extension RuntimeFiles {
  /// The tickets lock, which orders ticket handling between processes, held while this
  /// value lives. (A class holds the descriptor, and every wait works on it through the
  /// class: Swift 6.0.3's optimiser crashed on the same code with a noncopyable local.)
  private final class TicketsLock {
    let file: FileDescriptor
    let path: String

    init(_ file: consuming FileDescriptor, path: String) {
      self.file = file
      self.path = path
    }

    /// How `take` ended.
    enum Taking {
      case taken, cancelled, heldTooLong
    }

    /// Takes the lock: `cancelled` if `cancellation` fires while another process holds it,
    /// `heldTooLong` if another holds it past `patience`.
    func take(cancellation: Cancellation?, patience: Duration) throws(ControlError) -> Taking {
      // Not F_SETLKW: no signal or cancel could end that wait (a hostile holder could keep us
      // in it for ever). A holder keeps this lock only for a moment, so trying again every
      // 20 ms costs little; a cancel wakes the wait between tries at once.
      let deadline = MonotonicTime.now() + patience
      let pause = OneShotEvent()
      do throws(Errno) {
        while try !file.lock(exclusive: true, wait: false) {
          let retry = MonotonicTime.now() + .milliseconds(20)
          if retry > deadline { return .heldTooLong }
          if let cancellation {
            if !cancellation.wait(untilMonotonic: retry) { return .cancelled }
          } else {
            _ = pause.wait(untilMonotonic: retry)
          }
        }
        return .taken
      } catch {
        throw .file(operation: "lock", path: path, errno: error)
      }
    }
  }

  /// How long the tickets lock may be held by another before it is taken for no
  /// morsetorch's: a holder keeps it only while it numbers or looks over the tickets.
  static var ticketsPatience: Duration { .seconds(2) }

  /// Takes the tickets lock; nil if `cancellation` fires while another process holds it.
  ///
  /// One held past `ticketsPatience` (by a process that is no morsetorch taking its turn, or
  /// by no process: an open file description lock) is replaced by root or the file's owner,
  /// as a file linked elsewhere is; anyone else is told so, rather than waiting unseen.
  private func lockTickets(cancellation: Cancellation? = nil) throws(ControlError)
    -> TicketsLock?
  {
    while true {
      let held = TicketsLock(try openLockFile(tickets), path: tickets)
      switch try held.take(cancellation: cancellation, patience: Self.ticketsPatience) {
      case .cancelled: return nil
      case .heldTooLong:
        // Replaced meanwhile (by root, as here): wait for the new one.
        guard Self.isStill(held.file, at: tickets) else { continue }
        return try replacingHeld(held)
      case .taken: break
      }
      // Replaced while this waited (by root, as below): take the new one.
      guard Self.isStill(held.file, at: tickets) else { continue }
      guard needsReplacing(held.file), let replacement = replacement(for: tickets) else {
        return held
      }
      return TicketsLock(replacement, path: tickets)
    }
  }

  /// The tickets lock taken anew in a file of this user's, `held` having been held by
  /// another past its patience; throws when this user may not replace it.
  private func replacingHeld(_ held: TicketsLock) throws(ControlError) -> TicketsLock {
    let euid = CurrentProcess.effectiveUserID
    if let owner = try? held.file.status().ownerID, euid == 0 || owner == euid,
      let replacement = replacement(for: tickets)
    {
      return TicketsLock(replacement, path: tickets)
    }
    guard let pid = try Self.holder(of: held.file, path: tickets) else {
      throw .file(operation: "lock", path: tickets, errno: .wouldBlock)
    }
    throw .ticketsLockHeld(path: tickets, pid: pid, patience: Self.ticketsPatience)
  }

  /// Takes the next ticket: a new file `NAME.wait.<n>`, locked by this process; nil if
  /// `cancellation` fires while waiting for the tickets lock.
  func takeTicket(cancellation: Cancellation) throws(ControlError) -> Ticket? {
    guard let held = try lockTickets(cancellation: cancellation) else { return nil }
    defer { withExtendedLifetime(held) {} }
    let last = allTickets().last
    if let last, last.number >= Self.highestTicket {
      // Never numbered by a sender (one a second for 30 billion years): planted.
      throw .unsafeFile(
        path: last.path,
        reason: "no ticket may follow its number (someone put it there; root may remove it)"
      )
    }
    var number = (last?.number ?? 0) + 1
    while true {
      let digits = String(number)
      let path = directory.file(
        ticketPrefix + String(repeating: "0", count: max(0, 20 - digits.count)) + digits)
      do throws(Errno) {
        let file = try FileDescriptor.open(
          path, [.readWrite, .create, .exclusive, .noFollow], permissions: 0o664)
        _ = try file.lock(exclusive: true, wait: false)
        return Ticket(number: number, path: path, file: file)
      } catch  where error == .fileExists && number < Self.highestTicket {
        // Taken meanwhile, by one that numbered under a tickets file replaced since.
        number += 1
      } catch {
        throw .file(operation: "create", path: path, errno: error)
      }
    }
  }

  /// The live ticket just before ticket `number` in line, if any; dead tickets found on the way
  /// are removed.
  func ticket(before number: Int) throws(ControlError) -> String? {
    let held = try lockTickets()
    defer { withExtendedLifetime(held) {} }
    var previous: String?
    for other in allTickets() where other.number < number {
      if try holder(lockPath: other.path) == nil {
        try? FileSystem.unlink(other.path)
      } else {
        previous = other.path
      }
    }
    return previous
  }

  /// Blocks until the owner of the lock-type file at `path` lets go of it (it exits, or gives
  /// up its ticket); returns at once if the file is gone.
  func waitForRelease(of path: String) throws(ControlError) {
    do throws(Errno) {
      let file = try FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking])
      _ = try file.lock(exclusive: false, wait: true)
    } catch  where error == .noSuchFile {
      return
    } catch {
      throw .file(operation: "wait for", path: path, errno: error)
    }
  }

  /// The tickets whose owners are alive, in order, with their owners. A ticket locked by no
  /// process (an open file description lock, which morsetorch never takes: a member's way to
  /// make `status` and `stop` fail for everyone) is no waiter, and is left out; so is one
  /// locked by a process of another user than the file's (a waiter makes its own ticket: that
  /// is a lock file a member renamed to look like one, to have another device's sender
  /// stopped).
  func liveTickets() throws(ControlError) -> [(path: String, holder: Int32)] {
    var live: [(path: String, holder: Int32)] = []
    for ticket in allTickets() {
      do throws(ControlError) {
        guard let holder = try holder(lockPath: ticket.path),
          let owner = try? FileSystem.linkStatus(ticket.path).ownerID,
          RecordLockTable.userID(of: holder) == owner
        else { continue }
        live.append((ticket.path, holder))
      } catch {
        guard case .lockNotHeldByProcess = error else { throw error }
      }
    }
    return live
  }

  /// The highest ticket number: twenty digits hold more, and `Int` not much more.
  static let highestTicket = 999_999_999_999_999_999

  /// The tickets in the directory, in order; a name whose number is past `highestTicket` is
  /// no ticket of ours.
  private func allTickets() -> [(number: Int, path: String)] {
    let names = (try? FileSystem.directoryEntries(directory.path)) ?? []
    return names.compactMap { name -> (Int, String)? in
      guard name.hasPrefix(ticketPrefix) else { return nil }
      let digits = name.dropFirst(ticketPrefix.count)
      guard digits.count == 20, let number = Int(digits), number <= Self.highestTicket
      else { return nil }
      return (number, directory.file(name))
    }.sorted { $0.0 < $1.0 }
  }
}
