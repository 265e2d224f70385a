import Glibc

/// Starting threads (`pthread_create`).
///
/// The threads of morsetorch are few and long-lived (a signal watcher, a line reader, a
/// preview drawer, a record writer, a presence watch); Foundation's `Thread` would pull all
/// of Foundation into the binary for this alone.
public enum Threads {
  /// Runs `body` on a new detached thread; throws the error of `pthread_create` (nothing runs
  /// then). `stackSize` overrides the default stack (tests use an impossible one).
  public static func start(
    stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void
  ) throws(Errno) {
    final class Box {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize {
      let status = pthread_attr_setstacksize(&attributes, stackSize)
      if status != 0 { throw Errno(code: status) }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, &attributes,
      { context in
        guard let context else { return nil }
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<Box>.fromOpaque(context).release()
      throw Errno(code: status)
    }
  }
}
