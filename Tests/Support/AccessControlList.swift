import Glibc

/// A POSIX access ACL written straight into a file's `system.posix_acl_access` attribute (the
/// kernel's binary form; no `setfacl` needed): its owner, group and others as the mode says,
/// plus named users with their own permissions (`rw-` is 6), and the mask that lets them count.
public enum AccessControlList {
  /// Gives `path` an ACL with these named users; throws the errno when the file system refuses.
  public static func set(
    _ path: String, owner: UInt16, group: UInt16, others: UInt16, users: [UInt32: UInt16]
  ) throws {
    let undefined = UInt32.max
    var entries: [(tag: UInt16, permissions: UInt16, id: UInt32)] = [(0x01, owner, undefined)]
    entries += users.sorted { $0.key < $1.key }.map { (0x02, $0.value, $0.key) }
    entries += [(0x04, group, undefined), (0x10, 7, undefined), (0x20, others, undefined)]
    var bytes: [UInt8] = littleEndian(UInt32(2))
    for entry in entries {
      bytes += littleEndian(entry.tag) + littleEndian(entry.permissions) + littleEndian(entry.id)
    }
    guard setExtendedAttribute(path, "system.posix_acl_access", bytes, bytes.count, 0) == 0 else {
      throw AccessControlListError(code: errno)
    }
  }

  private static func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian, Array.init)
  }
}

/// The errno of a refused ACL.
public struct AccessControlListError: Error {
  /// The errno.
  public let code: Int32
}

/// setxattr(2), which Glibc's module map leaves out (`<sys/xattr.h>`); its arguments are
/// pointers and integers, passed alike by C and Swift on Linux's architectures.
@_silgen_name("setxattr")
private func setExtendedAttribute(
  _ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer,
  _ size: Int, _ flags: Int32
) -> Int32
