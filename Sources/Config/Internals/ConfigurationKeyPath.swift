import JSON

/// Where a value sits in `config.json`, written as `rules[0].grantMinutes` or
/// `views["Google Maps"].home`.
struct ConfigurationKeyPath: CustomStringConvertible {
  private(set) var description = ""
  /// The same path as a JSON Pointer (RFC 6901), `/rules/0/grantMinutes`, as the parser keys number texts.
  private(set) var pointer = ""

  /// The path of `key` inside this object.
  func key(_ key: String) -> ConfigurationKeyPath {
    var path = self
    path.pointer += "/" + JSONValue.pointerToken(key)
    let bytes = Array(key.utf8)
    let isIdentifier =
      !bytes.isEmpty && !(0x30...0x39).contains(bytes[0])
      && bytes.allSatisfy {
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
          || $0 == 0x5F
      }
    if isIdentifier {
      path.description += (description.isEmpty ? "" : ".") + key
    } else {
      path.description += "[\(JSONValue.string(key).serialized)]"
    }
    return path
  }

  /// The path of element `index` inside this array.
  func index(_ index: Int) -> ConfigurationKeyPath {
    var path = self
    path.pointer += "/\(index)"
    path.description += "[\(index)]"
    return path
  }
}
