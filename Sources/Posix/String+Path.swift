extension String {
  /// The path without its last component: `/a/b` → `/a`, `b` → `.`, `/a` → `/`.
  public var parentPath: String {
    var path = Substring(self)
    while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path = path.dropLast() }
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The last path component: `/a/de.po` → `de.po`.
  public var lastPathComponent: String {
    guard let slash = lastIndex(of: "/") else { return self }
    return String(self[index(after: slash)...])
  }

  /// This path with `component` appended, with exactly one slash between them.
  public func appendingPathComponent(_ component: String) -> String {
    utf8.last == UInt8(ascii: "/") ? self + component : self + "/" + component
  }
}
