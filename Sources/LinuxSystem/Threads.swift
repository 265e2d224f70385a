import Glibc
import Synchronization

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

  /// `body` applied to each of `items`, each on a thread of its own, at most `width` at once:
  /// the results in the order of `items`. An item whose thread cannot start is done on this
  /// thread.
  public static func concurrentMap<Item: Sendable, Value: Sendable>(
    _ items: [Item], width: Int = 64, _ body: @escaping @Sendable (Item) -> Value
  ) -> [Value] {
    guard items.count > width else { return concurrentWave(items, body) }
    return stride(from: 0, to: items.count, by: width).flatMap { start in
      concurrentWave(Array(items[start..<min(start + width, items.count)]), body)
    }
  }

  private static func concurrentWave<Item: Sendable, Value: Sendable>(
    _ items: [Item], _ body: @escaping @Sendable (Item) -> Value
  ) -> [Value] {
    guard items.count > 1 else { return items.map(body) }
    let results = ConcurrentResults<Value>(count: items.count)
    var started: [WorkerThread] = []
    for (index, item) in items.enumerated() {
      let worker = WorkerThread()
      do throws(Errno) {
        try worker.start { results.store(body(item), at: index) }
        started.append(worker)
      } catch {
        results.store(body(item), at: index)
      }
    }
    started.forEach { $0.wait() }
    return results.values.withLock { $0.compactMap { $0 } }
  }
}

/// The results of `Threads.concurrentMap`, stored by the threads that make them.
private final class ConcurrentResults<Value: Sendable>: Sendable {
  let values: Mutex<[Value?]>

  init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }

  func store(_ value: Value, at index: Int) { values.withLock { $0[index] = value } }
}
