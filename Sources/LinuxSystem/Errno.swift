import Glibc

/// An error number (`errno`) left by a failed system call.
///
/// A bare code, as swift-system's `Errno` is: the symbolic name (`EACCES`) and the C library's
/// text for it (`strerror_r(3)`) are looked up when asked, so an error message can show both:
/// "Permission denied (EACCES)". Two values are equal when their codes are, so a case can be
/// matched with `case Errno.permissionDenied:`.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
  /// The number itself, as found in `errno`.
  public let code: Int32

  /// The error with number `code`.
  public init(code: Int32) { self.code = code }

  /// The error the last failed call left in `errno` on this thread.
  package static var current: Errno { Errno(code: errno) }

  /// The symbolic name, like `EACCES`; "errno 123" for a number without a known name.
  public var name: String { Errno.symbolicNames[code] ?? "errno \(code)" }

  /// The C library's description, like "Permission denied".
  public var message: String { Errno.text(for: code) }

  /// "Permission denied (EACCES)".
  public var description: String { "\(message) (\(name))" }

  /// Runs `body`, turning the `Errno` it throws into the error of an area with `transform`
  /// (`{ LEDError($0, operation: "read", path: path) }`): the one shape of the conversion that
  /// otherwise takes a `do throws(Errno)` and a `catch` at each call. (`body` says
  /// `() throws(Errno) in`: Swift infers `any Error` for a closure's `try` otherwise.)
  public static func mapping<Result, Failure: Error>(
    _ body: () throws(Errno) -> Result, to transform: (Errno) -> Failure
  ) throws(Failure) -> Result {
    do throws(Errno) {
      return try body()
    } catch {
      throw transform(error)
    }
  }

  /// `EPERM`.
  public static let notPermitted = Errno(code: EPERM)
  /// `ENOENT`.
  public static let noSuchFile = Errno(code: ENOENT)
  /// `ESRCH`.
  public static let noSuchProcess = Errno(code: ESRCH)
  /// `EINTR`.
  public static let interrupted = Errno(code: EINTR)
  /// `EIO`.
  public static let ioError = Errno(code: EIO)
  /// `ENXIO`.
  public static let noSuchDeviceOrAddress = Errno(code: ENXIO)
  /// `EAGAIN`.
  public static let wouldBlock = Errno(code: EAGAIN)
  /// `EADDRINUSE`.
  public static let addressInUse = Errno(code: EADDRINUSE)
  /// `EACCES`.
  public static let permissionDenied = Errno(code: EACCES)
  /// `EBUSY`.
  public static let busy = Errno(code: EBUSY)
  /// `EEXIST`.
  public static let fileExists = Errno(code: EEXIST)
  /// `ENODEV`.
  public static let noSuchDevice = Errno(code: ENODEV)
  /// `ENOTDIR`.
  public static let notDirectory = Errno(code: ENOTDIR)
  /// `EINVAL`.
  public static let invalidArgument = Errno(code: EINVAL)
  /// `EFBIG`.
  public static let fileTooLarge = Errno(code: EFBIG)
  /// `ENOSPC`.
  public static let noSpace = Errno(code: ENOSPC)
  /// `EPIPE`.
  public static let brokenPipe = Errno(code: EPIPE)
  /// `ENOSYS`.
  public static let notImplemented = Errno(code: ENOSYS)
  /// `EOPNOTSUPP`.
  public static let notSupported = Errno(code: EOPNOTSUPP)
  /// `ETIMEDOUT`.
  public static let timedOut = Errno(code: ETIMEDOUT)
  /// `EROFS`.
  public static let readOnlyFileSystem = Errno(code: EROFS)
  /// `EISDIR`.
  public static let isDirectory = Errno(code: EISDIR)
  /// `EDQUOT`.
  public static let diskQuotaExceeded = Errno(code: EDQUOT)
  /// `ELOOP`.
  public static let tooManySymbolicLinks = Errno(code: ELOOP)
  /// `ENOTTY`: "Inappropriate ioctl for device" (a GPIO request on something else).
  public static let inappropriateIOControl = Errno(code: ENOTTY)
  /// `EDEADLK`: a lock that would change one this process holds.
  public static let deadlock = Errno(code: EDEADLK)
  /// `EXDEV`: `openat2(2)` refused a path that leaves its directory or crosses a symlink.
  public static let crossDevice = Errno(code: EXDEV)
  /// `ENAMETOOLONG`.
  public static let nameTooLong = Errno(code: ENAMETOOLONG)
  /// `EBADF`: not an open descriptor, or not open for that (reading a write-only one).
  public static let badFileDescriptor = Errno(code: EBADF)
  /// `EMFILE`: this process has as many descriptors open as `ulimit -n` allows.
  public static let tooManyOpenFiles = Errno(code: EMFILE)
  /// `ENFILE`: the whole system has as many files open as it allows.
  public static let tooManyOpenFilesInSystem = Errno(code: ENFILE)

  /// `strerror_r(3)`, the thread-safe `strerror` (Swift sees the XSI variant: 0 on success).
  private static func text(for code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let result = buffer.withUnsafeMutableBufferPointer { storage -> Int32 in
      guard let start = storage.baseAddress else { return ERANGE }
      return strerror_r(code, start, storage.count - 1)
    }
    guard result == 0 else { return "Unknown error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static let symbolicNames: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO",
    ENXIO: "ENXIO", E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD",
    EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
    EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
    EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG",
    ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", EPIPE: "EPIPE",
    ERANGE: "ERANGE", EDEADLK: "EDEADLK", ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS",
    ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", ENODATA: "ENODATA", ETIMEDOUT: "ETIMEDOUT",
    EOPNOTSUPP: "EOPNOTSUPP", ESTALE: "ESTALE", ENOTCONN: "ENOTCONN", ECANCELED: "ECANCELED",
    ENOMEDIUM: "ENOMEDIUM", EOVERFLOW: "EOVERFLOW", EDQUOT: "EDQUOT",
  ]
}
