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
    do throws(Errno) {
      return try file.info()
    } catch {
      throw GPIOError(error, operation: "read the chip info of", path: path)
    }
  }

  func lineInfo(offset: Int) throws(GPIOError) -> GPIOChipFile.LineInfo {
    do throws(Errno) {
      return try file.lineInfo(offset: offset)
    } catch {
      throw GPIOError(error, operation: "read line \(offset) of", path: path)
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
      do throws(Errno) {
        try request?.set(isActive)
      } catch {
        throw GPIOError(error, operation: "set line \(offset) of", path: path)
      }
    }
  }

  func isActive() throws(GPIOError) -> Bool {
    try request.withLock { request throws(GPIOError) in
      do throws(Errno) {
        return try request?.value() ?? false
      } catch {
        throw GPIOError(error, operation: "read line \(offset) of", path: path)
      }
    }
  }

  /// Waits under the lock: the receiver asks with short timeouts and releases afterwards.
  func nextEdge(timeout: Duration) throws(GPIOError) -> GPIOLineRequest.Event? {
    try request.withLock { request throws(GPIOError) -> GPIOLineRequest.Event? in
      guard request?.waitForEvent(timeout: timeout) == true else { return nil }
      do throws(Errno) {
        return try request?.nextEvent()
      } catch {
        throw GPIOError(error, operation: "read the edges of line \(offset) of", path: path)
      }
    }
  }

  func release() {
    request.withLock { try? $0.take()?.release() }
  }
}
