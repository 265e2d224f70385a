import LinuxSystem
import Synchronization

/// Takes requests to stop one transmission, or one waiting sender, from other processes.
///
/// A socket in the runtime directory (`NAME.stop`, `NAME.wait.N.stop`), mode 0660: in the
/// directory shared by the LED group, every member may ask, whatever user runs the
/// transmission — no permission to signal it is needed. A request fires the cancellation at
/// once; the connection is held open until `close()`, which comes after the device is back,
/// so the asking process reads the end of the connection as "stopped and restored".
final class StopListener: Sendable {
  private let path: String
  private let listener: Mutex<Listener?>
  /// The held connections; nil once closed.
  private let connections = Mutex<[Connection]?>([])
  private let firstRequest = Mutex<StopRequest?>(nil)

  /// A connection held open until the listener closes.
  private final class Connection: Sendable {
    let socket: UnixSocket
    init(_ socket: consuming UnixSocket) { self.socket = socket }
  }

  /// The listening socket, shared with the accepting thread.
  private final class Listener: Sendable {
    let socket: UnixSocket
    init(_ socket: consuming UnixSocket) { self.socket = socket }
  }

  /// Listens at `path` of `files` (which this process owns: it holds the lock or ticket of
  /// that name), firing `cancellation` on the first request.
  init(path: String, of files: RuntimeFiles, cancelling cancellation: Cancellation) throws(Errno) {
    self.path = path
    // Left by a holder that was killed, or planted (a directory, which would keep the socket
    // from being made).
    files.removeEvenADirectory(path)
    let listener = Listener(try UnixSocket.listen(at: path, permissions: 0o660))
    self.listener = Mutex(listener)
    do throws(Errno) {
      try Threads.start { [self] in acceptLoop(listener, cancellation: cancellation) }
    } catch {
      listener.socket.shutDown()
      try? FileSystem.unlink(path)
      throw error
    }
  }

  /// The first request that came, if any.
  var request: StopRequest? { firstRequest.withLock { $0 } }

  /// Stops listening and ends every held connection: the askers learn the stop is complete.
  func close() {
    guard let listener = listener.withLock({ $0.take() }) else { return }
    try? FileSystem.unlink(path)
    listener.socket.shutDown()
    connections.withLock { $0 = nil }
  }

  deinit {
    close()
  }

  private func acceptLoop(_ listener: Listener, cancellation: Cancellation) {
    while let socket = try? listener.socket.accept() {
      let connection = Connection(socket)
      guard let peer = try? connection.socket.peer() else { continue }
      // Held (not answered) until close(): its end is the answer. Once closed, it is
      // dropped at once, which is the same answer.
      connections.withLock { $0?.append(connection) }
      // Recorded only if the request is what stopped it (not a signal or a failure before).
      let request = StopRequest(processID: peer.processID, userID: peer.userID)
      firstRequest.withLock { first in
        if first == nil && !cancellation.isCancelled { first = request }
      }
      if !cancellation.cancel() {
        firstRequest.withLock { first in if first == request { first = nil } }
      }
    }
  }
}
