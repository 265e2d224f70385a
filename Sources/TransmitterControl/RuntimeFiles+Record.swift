import LinuxSystem

/// The device's state record, `NAME.state`: written by its holder, read by everyone, trusted
/// only as far as the kernel vouches for its writer.
extension RuntimeFiles {
  /// Whether the transmitter that wrote `record` still runs, as the user who wrote it, and
  /// holds a lock on a file of this directory's filesystem that is not one of its writer's
  /// own files here: the lock file it locked was moved away (a member of the group may
  /// rename the files it made), so the device is still in use though no one holds the lock
  /// at its name. Its record is then no leftover.
  func isStillHeldElsewhere(by record: TransmissionRecord) -> Bool {
    guard let writer = record.writerID, RecordLockTable.userID(of: record.pid) == writer,
      let here = try? FileSystem.status(directory.path)
    else { return false }
    var held = RecordLockTable.writeLocks(of: record.pid, onFileSystemOf: here.identity)
    for name in (try? FileSystem.directoryEntries(directory.path)) ?? [] {
      guard !held.isEmpty else { break }
      if let status = try? FileSystem.linkStatus(directory.file(name)), status.ownerID == writer {
        held.remove(status.identity)
      }
    }
    return !held.isEmpty
  }

  /// Reads the record's bytes now and leaves decoding for later.
  func readRecordLater() -> RecordReading {
    let bytes: [UInt8]
    do throws(Errno) {
      let file = try FileDescriptor.open(record, [.readOnly, .noFollow, .nonBlocking])
      let status = try file.status()
      guard let writerID = Self.soleWriter(of: status) else {
        return .done(none: false, path: record, reason: Self.noSoleWriter(status))
      }
      bytes = try file.readAll()
      return .bytes(bytes, path: record, name: name, writerID: writerID)
    } catch {
      if error == .noSuchFile { return .done(none: true, path: record, reason: "") }
      return .done(none: false, path: record, reason: "it cannot be read: \(error)")
    }
  }

  /// The one user who can have written the file `status` describes: its owner, when it is a
  /// plain file with a single link that no one else may write (no write bit for its group or
  /// for others). Nil otherwise: then anyone who may write it, or who made a link to it (a
  /// hard link of another user's group-writable file, renamed in from a directory of one's
  /// own), may have written what it holds, and its owner proves nothing.
  static func soleWriter(of status: FileStatus) -> UInt32? {
    guard status.isRegularFile, status.linkCount == 1, !status.isGroupWritable,
      !status.isWorldWritable
    else { return nil }
    return status.ownerID
  }

  /// Why a record file has no sole writer (`soleWriter(of:)` is nil).
  static func noSoleWriter(_ status: FileStatus) -> String {
    guard status.isRegularFile, status.linkCount == 1 else {
      return "it is not a plain file with a single link, so it does not show who wrote it"
    }
    let mode = "0" + String(status.permissions, radix: 8)
    return "its mode \(mode) lets others than its owner (uid \(status.ownerID)) write it, so "
      + "it does not show who wrote it (morsetorch writes records that only their owner may "
      + "write)"
  }

  /// Removes the record and the temporary copies (only the device's holder writes them).
  func removeRecord() {
    // A record is renamed over its name, and cannot be over a directory.
    removeEvenADirectory(record)
    let names = (try? FileSystem.directoryEntries(directory.path)) ?? []
    for name in names where name.hasPrefix(temporaryRecordPrefix) {
      try? FileSystem.unlink(directory.file(name))
    }
  }

  /// Writes the record to a new file, then renames it over the old one (atomic for readers).
  func writeRecord(_ value: TransmissionRecord) throws(ControlError) {
    let bytes = value.encoded()
    var temporary = ""
    do throws(Errno) {
      let file = try createUnpredictable(temporaryRecordPrefix, path: &temporary)
      // Only its owner may write a record (`soleWriter(of:)`), whatever the umask or a
      // default ACL would have made it.
      let written = Result { () throws(Errno) in
        try file.setPermissions(0o644)
        try file.writeWhole(bytes)
      }
      try? file.close()
      try written.get()
      try FileSystem.rename(temporary, to: record)
    } catch {
      try? FileSystem.unlink(temporary)
      throw .file(operation: "write", path: record, errno: error)
    }
  }
}
