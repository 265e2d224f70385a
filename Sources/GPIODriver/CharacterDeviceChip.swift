import LinuxSystem
import Synchronization

/// A GPIO chip of the kernel, through its character device and the uAPI v2.
final class CharacterDeviceChip: GPIOChip {
  let path: String
  private let file: GPIOChipFile
  private let name: String

  /// Opens the chip at `path`; a path with nothing there (`ENOENT` on open) is a chip that
  /// does not exist (`GPIOChipDirectory` lists the chips beside it), not one that went away.
  init(path: String) throws(GPIOError) {
    self.path = path
    do throws(Errno) {
      file = try GPIOChipFile(path: path)
    } catch {
      if error == .noSuchFile { throw .chipNotFound(path, available: []) }
      if error == .inappropriateIOControl { throw .notAChip(path: path) }
      throw GPIOError(error, operation: "open", path: path)
    }
    do throws(Errno) {
      name = try file.info().name
    } catch {
      if error == .inappropriateIOControl { throw .notAChip(path: path) }
      throw GPIOError(error, operation: "read the chip info of", path: path)
    }
  }

  func info() throws(GPIOError) -> GPIOChipFile.Info {
    return try Errno.mapping { () throws(Errno) in try file.info() } to: {
      GPIOError($0, operation: "read the chip info of", path: path)
    }
  }

  func lineInfo(offset: Int) throws(GPIOError) -> GPIOChipFile.LineInfo {
    return try Errno.mapping { () throws(Errno) in try file.lineInfo(offset: offset) } to: {
      GPIOError($0, operation: "read line \(offset) of", path: path)
    }
  }

  func requestOutput(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> any GPIOOutput
  {
    RequestedLine(
      try request(offset: offset, flags: flags, consumer: consumer), path: path, offset: offset)
  }

  func requestInput(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> any GPIOInput
  {
    RequestedLine(
      try request(offset: offset, flags: flags, consumer: consumer), path: path, offset: offset)
  }

  private func request(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> GPIOLineRequest
  {
    do throws(Errno) {
      return try file.request(offset: offset, flags: flags, consumer: consumer)
    } catch {
      if error == .busy {
        let holder = (try? file.lineInfo(offset: offset).consumer) ?? ""
        throw .lineBusy(chip: name, offset: offset, consumer: holder)
      }
      throw GPIOError(error, operation: "request line \(offset) of", path: path)
    }
  }
}

/// A requested line of a kernel chip.
private final class RequestedLine: GPIOOutput, GPIOInput {
  private let request: Mutex<GPIOLineRequest?>
  private let path: String
  private let offset: Int

  init(_ request: consuming GPIOLineRequest, path: String, offset: Int) {
    self.request = Mutex(.some(request))
    self.path = path
    self.offset = offset
  }

  func set(_ isActive: Bool) throws(GPIOError) {
    try request.withLock { request throws(GPIOError) in
      try Errno.mapping { () throws(Errno) in try request?.set(isActive) } to: {
        GPIOError($0, operation: "set line \(offset) of", path: path)
      }
    }
  }

  func isActive() throws(GPIOError) -> Bool {
    try request.withLock { request throws(GPIOError) in
      return try Errno.mapping { () throws(Errno) in try request?.value() ?? false } to: {
        GPIOError($0, operation: "read line \(offset) of", path: path)
      }
    }
  }

  /// Waits under the lock: the receiver asks with short timeouts and releases afterwards.
  func nextEdge(within timeout: Duration, unlessFired stop: OneShotEvent) throws(GPIOError)
    -> GPIOLineRequest.Event?
  {
    try request.withLock { request throws(GPIOError) -> GPIOLineRequest.Event? in
      guard request?.waitForEvent(timeout: timeout, unlessFired: stop) == true else { return nil }
      return try Errno.mapping { () throws(Errno) in try request?.nextEvent() } to: {
        GPIOError($0, operation: "read the edges of line \(offset) of", path: path)
      }
    }
  }

  func release() {
    request.withLock { try? $0.take()?.release() }
  }
}
