import Glibc

/// A write lock on a whole file taken with `F_OFD_SETLK`: a lock of the open file description,
/// not of a process, which any user who may open the file can take and `F_GETLK` reports as
/// held by pid -1. What a hostile member of the LED group can do to a lock file.
public final class OpenFileDescriptionLock {
  private let descriptor: Int32

  /// Opens (creating it, mode 0664) and locks `path`; nil if either fails.
  public init?(path: String) {
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o664)
    guard descriptor >= 0 else { return nil }
    var region = flock()
    region.l_type = Int16(F_WRLCK)
    region.l_whence = Int16(SEEK_SET)
    // F_OFD_SETLK, which Glibc's Swift module does not show (it needs _GNU_SOURCE).
    guard fcntl(descriptor, 37, &region) == 0 else {
      close(descriptor)
      return nil
    }
  }

  deinit {
    close(descriptor)
  }
}
