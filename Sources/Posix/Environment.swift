#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's environment variables.
public enum Environment {
  /// The value of `name`, `nil` when it is unset.
  public static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The value of `name`, `nil` when it is unset or empty.
  public static func nonEmptyValue(_ name: String) -> String? {
    guard let value = value(name), !value.isEmpty else { return nil }
    return value
  }

  /// Every variable of the process (`environ`); of two with the same name, the later one.
  public static var all: [String: String] {
    var result: [String: String] = [:]
    var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ
    while let entry = pointer.pointee {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }
}
