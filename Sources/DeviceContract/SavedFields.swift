/// A device's saved state as plain named fields, in order: what a driver keeps in a state
/// record to put the device back, and reads back from one (strictly: a record is input from
/// whoever could write it).
///
/// A field's name is one word of ASCII letters, digits, `_`, `-`, `.`, `:` and `/`; its value
/// is any text of one line. A name may repeat (a trigger's settings).
public struct SavedFields: Sendable, Hashable {
  /// One field.
  public struct Field: Sendable, Hashable {
    /// Its name.
    public let name: String
    /// Its value.
    public let value: String

    /// The field `name` with `value`.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields, in order.
  public var fields: [Field]

  /// These fields.
  public init(_ fields: [Field] = []) {
    self.fields = fields
  }

  /// The value of the only field `name`; nil if there is none, or more than one.
  public func value(of name: String) -> String? {
    let values = values(of: name)
    return values.count == 1 ? values[0] : nil
  }

  /// The values of every field `name`, in order.
  public func values(of name: String) -> [String] {
    fields.filter { $0.name == name }.map(\.value)
  }

  /// Whether `name` can be a field's name.
  public static func isName(_ name: String) -> Bool {
    (1...128).contains(name.utf8.count)
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || "_-.:/".utf8.contains(byte)
      }
  }
}
