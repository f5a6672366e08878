/// The browser that started the native-messaging host, as its arguments say.
///
/// Browsers pass what started the host: Chromium the caller's origin
/// (`chrome-extension://ID/`), Firefox the host manifest's path and the
/// extension's id. A host started any other way (from a terminal, by a
/// script) has no browser at the other end of its pipes and is refused.
/// The arguments prove nothing against a process that fakes them; they only
/// keep the host from being run by mistake.
public enum BrowserCaller: Hashable, Sendable, CustomStringConvertible {
  /// Chromium: the extension's origin.
  case chromium(origin: String)
  /// Firefox: the manifest's path and the extension's id.
  case firefox(manifest: String, extensionID: String)

  /// The caller the host's arguments (after `native-host`) name, or `nil` when they name none.
  public init?(arguments: [String]) {
    if let origin = arguments.first(where: Self.isChromiumOrigin) {
      self = .chromium(origin: origin)
      return
    }
    guard arguments.count >= 2, arguments[0].hasPrefix("/"), arguments[0].hasSuffix(".json"),
      Self.isFirefoxID(arguments[1])
    else { return nil }
    self = .firefox(manifest: arguments[0], extensionID: arguments[1])
  }

  /// `chrome-extension://` and 32 letters a–p, then `/`.
  static func isChromiumOrigin(_ text: String) -> Bool {
    let prefix = "chrome-extension://"
    guard text.hasPrefix(prefix), text.hasSuffix("/") else { return false }
    let id = text.utf8.dropFirst(prefix.utf8.count).dropLast()
    return id.count == 32 && id.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "p")).contains($0) }
  }

  /// A Firefox add-on id: an email-like `name@domain` or a `{GUID}`, at most 255 bytes, no spaces.
  static func isFirefoxID(_ text: String) -> Bool {
    guard (1...255).contains(text.utf8.count), !text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
      return false
    }
    return text.contains("@") || (text.hasPrefix("{") && text.hasSuffix("}"))
  }

  public var description: String {
    switch self {
    case .chromium(let origin): origin
    case .firefox(_, let extensionID): extensionID
    }
  }
}
